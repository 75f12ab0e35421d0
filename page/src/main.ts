// The live table's page: signs in, opens the websocket, draws what the server sends.

import { announcement } from "./announce";
import catalogsData from "./generated/catalogs.json";
import { Link, type LinkState } from "./connection";
import { Account, type SignedIn } from "./discord";
import { h } from "./dom";
import { chooseLanguage, Words, type Catalogs } from "./i18n";
import { keepLanguage, keptLanguage, languageMenu, showLanguage, type Kept } from "./language";
import { launchFrom, liveUrl } from "./launch";
import { drawEnding, endingOf, type Ending } from "./ending";
import { drawLobby } from "./lobby";
import { finalTable, type ClientMessage, type LobbyMessage, type Move, type ServerMessage, type TableMessage } from "./protocol";
import { drawTable, TableMemory } from "./table";
import { clock, secondsLeft } from "./timer";

const catalogs = catalogsData as Catalogs;
// A kept session is used for a new socket only with this much of it left.
const SESSION_MARGIN_MS = 30 * 1000;
// How long the last trick or round stays alone on the table before the result screen.
const FINAL_TABLE_MS = 2000;
const INTERACTIVE = "interactive";
const PRESSABLE = "[data-action]:enabled, [data-lobby]:enabled, [data-cell]:enabled";

/** The browser's storage, or null where the frame refuses it. */
function storage(): Kept | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

class Page {
  /** The language the viewer picked on the page (kept from an earlier visit), if any. */
  private picked = keptLanguage(storage(), catalogs);
  private words = new Words(catalogs, chooseLanguage(catalogs, [this.picked, navigator.language]));
  private readonly menu: HTMLElement;
  private shown: TableMessage | LobbyMessage | null = null;
  private notice = "";
  private state: LinkState = "connecting";
  private status = ""; // the connection's line last shown
  private readonly memory = new TableMemory();
  private signedIn: SignedIn | null = null;
  private link: Link | null = null;
  private resultAt = 0; // when the result screen of a game that just ended is shown

  constructor(private readonly root: HTMLElement) {
    this.menu = languageMenu(catalogs, this.words, (language) => this.pick(language));
    root.before(this.menu);
  }

  async start(): Promise<void> {
    const launch = launchFrom(window.location.search);
    const account = new Account(launch);
    this.link = new Link({
      url: liveUrl(window.location, launch.apiBase),
      hello: async () => {
        const kept = this.signedIn;
        const signed = kept && kept.expiresAt - Date.now() > SESSION_MARGIN_MS ? kept : await account.signIn();
        this.signedIn = signed;
        this.setWords(chooseLanguage(catalogs, [this.picked, signed.locale, navigator.language]));
        return { session: signed.session, instance: signed.instanceId, channel: signed.channelId, locale: signed.locale, language: this.picked };
      },
      renew: async () => {
        const renewed = await account.renew();
        if (this.signedIn) this.signedIn = { ...this.signedIn, ...renewed };
        return renewed.session;
      },
      onMessage: (message) => this.receive(message),
      onState: (state, detail) => {
        this.state = state;
        if (detail === "session") this.signedIn = null;
        this.draw();
      },
    });
    window.setInterval(() => this.tick(), 1000);
    try {
      await this.link.open();
    } catch (error) {
      this.state = "refused";
      this.notice = String(error);
      this.draw();
    }
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case "welcome":
        this.setWords(chooseLanguage(catalogs, [message.language, navigator.language]));
        break;
      case "refused":
        this.notice = message.reason;
        break;
      case "renewed":
        return; // the link keeps the session going; nothing to draw
      default:
        if (message.type === "table" && this.shown?.type === "table" && this.shown.game_id === message.game_id && message.version < this.shown.version) return;
        if (message.type === "table") this.say(announcement(this.shown?.type === "table" ? this.shown : null, message, this.words));
        if (message.type === "lobby" && this.shown?.type === "table" && message.last_result?.["game_id"] === this.shown.game_id) {
          // The game just ended here: its last trick or round stays a moment, then the result.
          this.resultAt = Date.now() + FINAL_TABLE_MS;
          window.setTimeout(() => this.draw(), FINAL_TABLE_MS);
        }
        this.shown = message;
        this.notice = "";
    }
    this.draw();
  }

  /** The viewer picked ``language`` on the page: it is kept, shown at once, and the backend
   * sends this socket's frames in it (a new socket's hello carries it). */
  private pick(language: string): void {
    this.picked = language;
    keepLanguage(storage(), language);
    this.setWords(language);
    this.link?.send({ type: "language", language });
    this.draw();
  }

  private setWords(language: string): void {
    this.words = new Words(catalogs, language);
    document.documentElement.lang = this.words.language;
    showLanguage(this.menu, this.words);
  }

  /** Tells a screen reader ``text`` through the page's live region (outside the redrawn table). */
  private say(text: string): void {
    const region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  private send(message: ClientMessage): void {
    if (!this.link?.send(message)) {
      this.notice = this.words._("Not connected: trying again…");
      this.draw();
    }
  }

  private act(move: Move): void {
    const table = this.shown;
    if (table?.type !== "table" || table.step === null) return;
    this.send({ type: "move", game_id: table.game_id, step: table.step, action: move.action });
  }

  private tick(): void {
    for (const element of this.root.querySelectorAll<HTMLElement>(".timer[data-deadline]")) {
      const seconds = secondsLeft(Number(element.dataset["deadline"]), Date.now());
      if (seconds !== null) element.textContent = `⏱ ${clock(seconds)}`;
    }
  }

  /** A finished game: its result screen (after the final table's moment), then the final
   * table itself, without moves. */
  private drawFinish(ending: Ending): HTMLElement {
    const w = this.words;
    const result = Date.now() >= this.resultAt
      ? drawEnding(ending, w, (gameId) => this.send({ type: "lobby", op: "play_again", game_id: gameId }))
      : null;
    const board = ending.table
      ? h("section", { class: "final-table", "aria-label": w._("The final table") },
        drawTable(ending.table, w, this.memory, { act: () => undefined, redraw: () => this.draw() }))
      : null;
    return h("div", { class: "lobby finish" }, result, board);
  }

  private draw(): void {
    const focused = document.activeElement as HTMLElement | null;
    const focusKey = focused?.dataset["action"] ?? focused?.dataset["lobby"] ?? focused?.dataset["cell"];
    const w = this.words;
    const parts: (HTMLElement | null)[] = [];
    let status = "";
    if (this.state === "connecting" && !this.shown) status = w._("Connecting…");
    if (this.state === "closed") status = w._("Connection lost: reconnecting…");
    if (this.state === "refused") status = w._("This table cannot be opened here.");
    if (status) parts.push(h("p", { class: "status" }, status));
    if (status !== this.status) this.say(status); // a lost or refused connection is heard too
    this.status = status;
    if (this.notice) parts.push(h("p", { class: "notice", role: "alert" }, this.notice));
    if (this.shown?.type === "table") {
      parts.push(drawTable(this.shown, w, this.memory, { act: (move) => this.act(move), redraw: () => this.draw() }));
    } else if (this.shown?.type === "lobby") {
      const shown = this.shown;
      const ending = shown.lobby === null ? endingOf(shown.last_result, finalTable(shown.last_result)) : null;
      if (ending) parts.push(this.drawFinish(ending));
      else parts.push(drawLobby(this.shown, w, (op, extra) => this.send({ type: "lobby", op, ...extra })));
    }
    this.root.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    // The page can first be used: the first of its table's or lobby's controls is drawn enabled.
    if (!performance.getEntriesByName(INTERACTIVE).length && this.root.querySelector(PRESSABLE)) performance.mark(INTERACTIVE);
    if (focusKey) {
      const again = this.root.querySelector<HTMLElement>(`[data-action="${CSS.escape(focusKey)}"], [data-lobby="${CSS.escape(focusKey)}"], [data-cell="${CSS.escape(focusKey)}"]`);
      again?.focus();
    }
  }
}

const root = document.getElementById("app");
if (root) void new Page(root).start();
