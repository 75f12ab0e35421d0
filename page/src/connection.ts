// The websocket to the backend: hello first, then the server's tables; reconnects after a
// drop (a new sign-in when the session expired), never after a refusal of the instance.

import { backoff } from "./launch";
import { parseServerMessage, type ClientMessage, type ServerMessage } from "./protocol";

export type LinkState = "connecting" | "open" | "closed" | "refused";

export interface LinkOptions {
  url: string;
  hello(): Promise<{ session: string; instance: string; channel: string | null }>;
  onMessage(message: ServerMessage): void;
  onState(state: LinkState, detail?: string): void;
}

// Close codes after which trying again cannot help (docs/activity.md).
const FINAL = new Set([4003, 4000]);
const SESSION_EXPIRED = 4001;

export class Link {
  private socket: WebSocket | null = null;
  private attempt = 0;

  constructor(private readonly options: LinkOptions) {}

  async open(): Promise<void> {
    this.options.onState("connecting");
    const hello = await this.options.hello();
    const socket = new WebSocket(this.options.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      const message: ClientMessage = { type: "hello", session: hello.session, instance: hello.instance };
      if (hello.channel) message.channel_id = hello.channel;
      socket.send(JSON.stringify(message));
      this.options.onState("open");
    });
    socket.addEventListener("message", (event) => {
      const message = typeof event.data === "string" ? parseServerMessage(event.data) : null;
      if (message) this.options.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (FINAL.has(event.code)) {
        this.options.onState("refused", event.reason);
        return;
      }
      this.options.onState("closed", event.code === SESSION_EXPIRED ? "session" : event.reason);
      this.attempt += 1;
      window.setTimeout(() => void this.open().catch((error: unknown) => this.options.onState("closed", String(error))), backoff(this.attempt));
    });
  }

  send(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
