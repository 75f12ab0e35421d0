// The websocket to the backend, opened while the page signs in when the instance is known
// beforehand: hello first, then the server's tables; the session renewed
// over the open socket before it ends; reconnects after a drop (a new sign-in when the
// session expired), never after a refusal of the instance. The backoff restarts only once a
// socket is welcomed, so a socket the backend's limits close at once (1013) waits longer each
// time.

import { backoff } from "./launch";
import { parseServerMessage, type ClientMessage, type ServerMessage } from "./protocol";

export type LinkState = "connecting" | "open" | "closed" | "refused";

export interface Hello {
  session: string;
  instance: string;
  channel: string | null;
  /** The Discord client's locale ("ro", "en-US"), if known. */
  locale?: string | null;
  /** The language the viewer picked on the page, if any (it wins over the locale). */
  language?: string | null;
}

export interface LinkOptions {
  /** The socket's address, without the query (see socketUrl). */
  url: string;
  /** The Activity instance when it is known before the sign-in (the launch's query): the
   * socket then opens while the sign-in is on its way. */
  instance?: string | null;
  hello(): Promise<Hello>;
  /** A new session of the same user (a new sign-in, without a reload). */
  renew(): Promise<string>;
  onMessage(message: ServerMessage): void;
  onState(state: LinkState, detail?: string): void;
}

// Close codes after which trying again cannot help (docs/activity.md).
const FINAL = new Set([4003, 4000]);
const SESSION_EXPIRED = 4001;
// A session is renewed two minutes before it ends, or with a quarter of it left if it is
// shorter than eight minutes; with under two seconds left the page lets it end (4001) instead.
const RENEW_BEFORE_SECONDS = 120;
const LAST_RENEWAL_SECONDS = 2;
// The backend closes a socket that sends more than 20 messages in 5 s (4008, web/live.py). The
// page sends at most 15 in any 5 s: a few presses beyond wait their turn (sent, in order, as
// soon as the window allows), more are refused here, and the socket stays open.
export const PACE_MESSAGES = 15;
export const PACE_MS = 5000;
export const PACE_WAITING = 5;

/** What became of a message handed to the link ("sent" also when it waits its turn). */
export type Sent = "sent" | "closed" | "busy";

/** A sliding window of send times: whether one more may go now. */
export class Pace {
  private readonly times: number[] = [];

  constructor(private readonly most = PACE_MESSAGES, private readonly windowMs = PACE_MS) {}

  take(now: number): boolean {
    while (this.times.length > 0 && now - (this.times[0] ?? now) >= this.windowMs) this.times.shift();
    if (this.times.length >= this.most) return false;
    this.times.push(now);
    return true;
  }

  /** Milliseconds from ``now`` until one more may go. */
  wait(now: number): number {
    if (this.times.length < this.most) return 0;
    return Math.max(0, (this.times[0] ?? now) + this.windowMs - now);
  }
}

/** The socket's address: the instance in the query, so that a balancer can send every
 * socket of an instance to one process (the session stays out of the address and its logs). */
export function socketUrl(url: string, instance: string): string {
  return `${url}?instance=${encodeURIComponent(instance)}`;
}

/** Milliseconds to wait before renewing a session that ends in ``expiresIn`` seconds, or
 * null when too little is left to try. */
export function renewalDelay(expiresIn: number): number | null {
  if (!Number.isFinite(expiresIn) || expiresIn < LAST_RENEWAL_SECONDS) return null;
  return Math.round((expiresIn - Math.min(RENEW_BEFORE_SECONDS, expiresIn / 4)) * 1000);
}

export class Link {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private renewal: ReturnType<typeof setTimeout> | null = null;
  private endsAt = 0; // when the open socket's session ends (Date.now() milliseconds)
  private waiting: WebSocket | null = null; // the socket opened before its hello is known
  private greeted: WebSocket | null = null; // the socket whose hello went: the only one to send on
  private readonly pace = new Pace();
  private queued: ClientMessage[] = []; // messages waiting for the pace's window
  private flushing: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: LinkOptions) {}

  /** A socket and its hello: the socket starts at once when the instance is known before the
   * sign-in (``instance``), so its upgrade and the sign-in travel together; the hello goes
   * once both are done. */
  async open(): Promise<void> {
    this.options.onState("connecting");
    const early = this.options.instance ?? null;
    let socket = early === null ? null : this.connect(early);
    this.waiting = socket;
    let hello: Hello;
    try {
      hello = await this.options.hello();
    } catch (error) {
      if (socket !== null) this.drop(socket);
      throw error;
    } finally {
      this.waiting = null;
    }
    // A socket the backend closed while the sign-in went on (it waits 10 s for a hello; a
    // first authorization in Discord's dialog can take longer) is replaced now, once.
    if (socket !== null && this.socket !== socket) socket = null;
    if (socket !== null && hello.instance !== early) {
      this.drop(socket); // signed in to another instance than the address named
      socket = null;
    }
    this.greet(socket ?? this.connect(hello.instance), hello);
  }

  /** A new socket to ``instance``'s address, the link's own from now on. */
  private connect(instance: string): WebSocket {
    const socket = new WebSocket(socketUrl(this.options.url, instance));
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      const message = typeof event.data === "string" ? parseServerMessage(event.data) : null;
      if (!message) return;
      if (message.type === "welcome") this.attempt = 0; // only a welcomed socket restarts the backoff
      if ((message.type === "welcome" || message.type === "renewed") && message.expires_in !== null) {
        this.endsAt = Date.now() + message.expires_in * 1000;
        this.schedule(socket, message.expires_in);
      }
      this.options.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.waiting === socket) return; // open() makes another once signed in
      this.cancelRenewal();
      if (FINAL.has(event.code)) {
        this.options.onState("refused", event.reason);
        return;
      }
      this.options.onState("closed", event.code === SESSION_EXPIRED ? "session" : event.reason);
      this.attempt += 1;
      setTimeout(() => void this.open().catch((error: unknown) => this.options.onState("closed", String(error))), backoff(this.attempt));
    });
    return socket;
  }

  /** The hello on ``socket``, now if it is open, else once it opens. */
  private greet(socket: WebSocket, hello: Hello): void {
    const send = (): void => {
      const message: ClientMessage = { type: "hello", session: hello.session, instance: hello.instance };
      if (hello.channel) message.channel_id = hello.channel;
      if (hello.locale) message.locale = hello.locale;
      if (hello.language) message.language = hello.language;
      socket.send(JSON.stringify(message));
      this.greeted = socket;
      this.options.onState("open");
    };
    if (socket.readyState === WebSocket.OPEN) send();
    else socket.addEventListener("open", send);
  }

  /** ``socket`` closed by the page, without a reconnection. */
  private drop(socket: WebSocket): void {
    if (this.socket === socket) this.socket = null;
    socket.close();
  }

  /** ``message`` on the open socket once its hello went (the backend closes a socket whose
   * first message is not a hello for good, 4000): "closed" while the link reconnects. */
  send(message: ClientMessage): Sent {
    if (this.socket === null || this.socket !== this.greeted || this.socket.readyState !== WebSocket.OPEN) return "closed";
    if (this.queued.length === 0 && this.pace.take(Date.now())) {
      this.socket.send(JSON.stringify(message));
      return "sent";
    }
    if (this.queued.length >= PACE_WAITING) return "busy";
    this.queued.push(message);
    this.flushLater(this.socket);
    return "sent";
  }

  /** Sends what waits for the pace, in order, as the window allows (on this socket only). */
  private flushLater(socket: WebSocket): void {
    if (this.flushing !== null) return;
    this.flushing = setTimeout(() => {
      this.flushing = null;
      if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) {
        this.queued = []; // the socket closed: a new one starts afresh (the page redraws)
        return;
      }
      while (this.queued.length > 0 && this.pace.take(Date.now())) socket.send(JSON.stringify(this.queued.shift()));
      if (this.queued.length > 0) this.flushLater(socket);
    }, this.pace.wait(Date.now()));
  }

  private schedule(socket: WebSocket, expiresIn: number): void {
    this.cancelRenewal();
    const delay = renewalDelay(expiresIn);
    if (delay === null) return;
    this.renewal = setTimeout(() => void this.renew(socket), delay);
  }

  private cancelRenewal(): void {
    if (this.renewal !== null) clearTimeout(this.renewal);
    this.renewal = null;
  }

  /** Sign in again and hand the socket the new session; on failure, try again while time is
   * left (the server's ``renewed`` schedules the next renewal). */
  private async renew(socket: WebSocket): Promise<void> {
    this.renewal = null;
    try {
      const session = await this.options.renew();
      if (this.socket === socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "renew", session } satisfies ClientMessage));
        return;
      }
    } catch {
      // tried again below, while the session lasts
    }
    if (this.socket === socket) this.schedule(socket, (this.endsAt - Date.now()) / 1000);
  }
}
