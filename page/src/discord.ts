// Signing in: the Embedded App SDK's authorize (scope identify) and the backend's /api/token,
// or, outside Discord, a stand-in for it (standin.ts) whose code ("mock:<user_id>") the local fake accepts.
// One SDK for the page's life: a renewal asks it for a new code (prompt none: no dialog once
// the user has agreed) without a reload. The SDK is fetched only inside Discord. Once signed
// in, the page follows Discord's layout (picture in picture, grid, focused) and the device's
// orientation through the SDK's events.

import type { IDiscordSDK } from "@discord/embedded-app-sdk";
import type { Launch } from "./launch";
import type { User } from "./protocol";
import { standIn } from "./standin";

/** Who is told of Discord's layout events (layout.ts's LayoutKeeper). */
export interface LayoutListener {
  mode(layoutMode: number): void;
  orientation(screenOrientation: number): void;
}

/** Where the page loads Discord's CDN (cdn.discordapp.com) from: inside Discord, the
 * Activity's URL mapping ``/cdn`` (docs/activity.md, "Enabling it") behind Discord's proxy;
 * outside it (mock mode) nowhere: the seats show a letter instead of an avatar. */
export function cdnBase(launch: Launch): string | null {
  return launch.mock ? null : "/.proxy/cdn";
}

/** What the page may ask of Discord's client besides signing in: its share dialog (a picture
 * on Discord's CDN) and its invite dialog. None outside Discord (the mock has no client). */
export interface Dialogs {
  shareMoment(mediaUrl: string): Promise<void>;
  invite(): Promise<void>;
}

/** The dialogs of a ready SDK, or null in mock mode (or before the SDK is ready). */
export function dialogsOf(sdk: Pick<IDiscordSDK, "commands"> | null, mock: boolean): Dialogs | null {
  if (mock || sdk === null) return null;
  return {
    shareMoment: async (mediaUrl) => {
      await sdk.commands.openShareMomentDialog({ mediaUrl });
    },
    invite: async () => {
      await sdk.commands.openInviteDialog();
    },
  };
}

/** A call of one of Discord's dialogs, as the mock records it (``?dialogs=record``). */
export interface DialogCall {
  command: "openShareMomentDialog" | "openInviteDialog";
  mediaUrl?: string;
}

/** The mock's answers to the dialogs' commands, recording each call in ``window.discordDialogs``. */
function recordedDialogs(): Pick<IDiscordSDK["commands"], "openShareMomentDialog" | "openInviteDialog"> {
  const calls: DialogCall[] = [];
  (window as unknown as { discordDialogs: DialogCall[] }).discordDialogs = calls;
  return {
    openShareMomentDialog: async (args) => {
      calls.push({ command: "openShareMomentDialog", mediaUrl: args.mediaUrl });
      return null;
    },
    openInviteDialog: async () => {
      calls.push({ command: "openInviteDialog" });
      return null;
    },
  };
}

export interface Session {
  session: string;
  /** When the backend says the session ends (Date.now() milliseconds). */
  expiresAt: number;
}

export interface SignedIn extends Session {
  user: User;
  instanceId: string;
  channelId: string | null;
  locale: string | null;
}

interface TokenAnswer {
  access_token: string;
  session: string;
  expires_in?: number;
  /** The OAuth2 user's locale (``/users/@me``): their Discord's language. */
  user: User & { locale?: string | null };
}

async function clientId(apiBase: string): Promise<string> {
  const built = import.meta.env["VITE_DISCORD_CLIENT_ID"] as string | undefined;
  if (built) return built;
  const answer = await fetch(`${apiBase}/config`);
  if (!answer.ok) throw new Error(`config: HTTP ${answer.status}`);
  const data = (await answer.json()) as { client_id?: string };
  if (!data.client_id) throw new Error("config: no client id");
  return data.client_id;
}

// A sign-in the backend answered "wait" (429: this address's limit; 503: Discord asked it to
// wait) was never sent to Discord, so the same code is tried again after Retry-After.
const EXCHANGE_TRIES = 3;
const LONGEST_WAIT_SECONDS = 30;

/** Seconds to wait before trying a refused sign-in again, or null when waiting cannot help. */
export function retryAfter(status: number, header: string | null): number | null {
  if (status !== 429 && status !== 503) return null;
  const seconds = header === null ? Number.NaN : Number(header);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > LONGEST_WAIT_SECONDS) return null;
  return seconds;
}

async function exchange(apiBase: string, code: string): Promise<TokenAnswer> {
  for (let tries = 1; ; tries += 1) {
    const answer = await fetch(`${apiBase}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    if (answer.ok) return (await answer.json()) as TokenAnswer;
    const wait = retryAfter(answer.status, answer.headers.get("Retry-After"));
    if (wait === null || tries >= EXCHANGE_TRIES) throw new Error(`token: HTTP ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

function session(token: TokenAnswer, now: number): Session {
  const seconds = typeof token.expires_in === "number" && Number.isFinite(token.expires_in) ? token.expires_in : 0;
  return { session: token.session, expiresAt: now + seconds * 1000 };
}

export class Account {
  private sdk: IDiscordSDK | null = null;
  private clientId = "mock";
  private authenticated = false;

  private layoutWatched = false;

  constructor(
    private readonly launch: Launch,
    private readonly layout: LayoutListener | null = null,
  ) {}

  /** A sign-in: the SDK made ready (once), a code, the backend's session for it. */
  async signIn(): Promise<SignedIn> {
    const sdk = await this.ready();
    const token = await this.token(sdk);
    const signed = session(token, Date.now());
    if (this.launch.mock) {
      return { ...signed, user: token.user, instanceId: this.launch.instanceId ?? sdk.instanceId, channelId: this.launch.channelId, locale: token.user.locale ?? navigator.language };
    }
    if (!this.authenticated) {
      await sdk.commands.authenticate({ access_token: token.access_token });
      this.authenticated = true;
    }
    await this.watchLayout(sdk);
    let locale: string | null = null;
    try {
      locale = (await sdk.commands.userSettingsGetLocale()).locale;
    } catch {
      locale = null;
    }
    locale ??= token.user.locale ?? null; // the OAuth2 user's, when the SDK does not say
    return { ...signed, user: token.user, instanceId: sdk.instanceId, channelId: sdk.channelId, locale };
  }

  /** Discord's share and invite dialogs, once signed in inside Discord; else null. */
  dialogs(): Dialogs | null {
    return dialogsOf(this.sdk, this.launch.mock && !this.launch.recordDialogs);
  }

  /** A new session of the same user, for the open socket (``renew``). */
  async renew(): Promise<Session> {
    const token = await this.token(await this.ready());
    return session(token, Date.now());
  }

  /** Discord's layout mode and the device's orientation, followed once per page (a client
   * that does not send them leaves the layout to the window's size). */
  private async watchLayout(sdk: IDiscordSDK): Promise<void> {
    const layout = this.layout;
    if (!layout || this.layoutWatched) return;
    this.layoutWatched = true;
    try {
      await sdk.subscribe("ACTIVITY_LAYOUT_MODE_UPDATE", (event) => layout.mode(event.layout_mode));
    } catch {
      // an older client: the size decides
    }
    try {
      await sdk.subscribe("ORIENTATION_UPDATE", (event) => layout.orientation(event.screen_orientation));
    } catch {
      // a desktop client has no orientation to tell
    }
  }

  private async token(sdk: IDiscordSDK): Promise<TokenAnswer> {
    const { code } = await sdk.commands.authorize({ client_id: this.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"] });
    return exchange(this.launch.apiBase, code);
  }

  private async ready(): Promise<IDiscordSDK> {
    if (this.sdk) return this.sdk;
    let sdk: IDiscordSDK;
    if (this.launch.mock) {
      sdk = standIn(this.launch.userId ?? "1", this.launch.channelId, this.launch.recordDialogs ? recordedDialogs() : {});
    } else {
      const loading = import("@discord/embedded-app-sdk"); // on its way while the config comes
      this.clientId = await clientId(this.launch.apiBase);
      sdk = new (await loading).DiscordSDK(this.clientId);
    }
    await sdk.ready();
    this.sdk = sdk;
    return sdk;
  }
}
