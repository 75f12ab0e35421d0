// The live table's page: signs in, opens the websocket, draws what the server sends.

import { announcement } from "./announce";
import catalogsData from "./generated/catalogs.json";
import { Link, type LinkState } from "./connection";
import { Account, cdnBase, type Dialogs, type SignedIn } from "./discord";
import { h } from "./dom";
import { chooseLanguage, Words, type Catalogs } from "./i18n";
import { keepLanguage, keptLanguage, languageMenu, showLanguage, type Kept } from "./language";
import { launchFrom, liveUrl } from "./launch";
import { drawEnding, endingOf, type Ending } from "./ending";
import { drawDropIn, dropInScreen, type DropInState } from "./dropin";
import { LayoutKeeper } from "./layout";
import { drawLobby, drawOpeners, openers, type LobbyExtra } from "./lobby";
import { setAvatarBase } from "./seats";
import { drawCannotPost } from "./start";
import { finalTable, type ClientMessage, type LobbyMessage, type LobbyOp, type Move, type ServerMessage, type TableMessage } from "./protocol";
import { drawTable, sameTable, TableMemory } from "./table";
import { clock, secondsLeft } from "./timer";
import { Flights } from "./fly";
import { patchChildren } from "./patch";
import { PressHold } from "./press";

const catalogs = catalogsData as Catalogs;
// A kept session is used for a new socket only with this much of it left.
const SESSION_MARGIN_MS = 30 * 1000;
// How long the last trick or round stays alone on the table before the result screen.
const FINAL_TABLE_MS = 2000;
// How long a refusal or a notice stays on the page while new frames come.
const NOTICE_MS = 6000;
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
  private noticeUntil = 0;
  private readonly dropIn: DropInState = { confirming: null, waiting: false };
  private state: LinkState = "connecting";
  private status = ""; // the connection's line last shown
  private readonly memory = new TableMemory();
  private signedIn: SignedIn | null = null;
  private link: Link | null = null;
  private resultAt = 0; // when the result screen of a game that just ended is shown
  private dialogs: Dialogs | null = null; // Discord's share and invite dialogs (none outside it)
  private sharing: number | null = null; // the game whose picture a Share press waits for
  private readonly flights = new Flights();
  private readonly hold: PressHold;

  constructor(private readonly root: HTMLElement) {
    this.menu = languageMenu(catalogs, this.words, (language) => this.pick(language));
    root.before(this.menu);
    this.hold = new PressHold(root, () => this.draw());
  }

  async start(): Promise<void> {
    const launch = launchFrom(window.location.search);
    setAvatarBase(cdnBase(launch));
    const layout = new LayoutKeeper(document.documentElement, () => ({ width: window.innerWidth, height: window.innerHeight }));
    layout.apply();
    window.addEventListener("resize", () => layout.apply());
    const account = new Account(launch, layout);
    this.link = new Link({
      url: liveUrl(window.location, launch.apiBase),
      instance: launch.instanceId, // the socket opens while the page signs in
      hello: async () => {
        const kept = this.signedIn;
        const signed = kept && kept.expiresAt - Date.now() > SESSION_MARGIN_MS ? kept : await account.signIn();
        this.signedIn = signed;
        this.dialogs = account.dialogs();
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
        if (state !== "open") {
          this.memory.sent = null; // a move on its way may be lost with its socket
          this.sharing = null; // and a Share press's answer too
        }
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
      case "notice":
        this.notice = message.type === "refused" ? message.reason : message.text;
        this.noticeUntil = Date.now() + NOTICE_MS;
        if (message.type === "refused") {
          this.memory.sent = null; // not made: its step's moves are offered again
          this.sharing = null;
        }
        break;
      case "shared":
        if (message.game_id === this.sharing) {
          this.sharing = null;
          void this.openDialog((dialogs) => dialogs.shareMoment(message.url), this.words._("Discord could not open its share dialog."));
        }
        break;
      case "waiting":
        this.dropIn.waiting = message.next_game;
        break;
      case "renewed":
        return; // the link keeps the session going; nothing to draw
      default:
        if (message.type === "table" && this.shown?.type === "table" && this.shown.game_id === message.game_id && message.version < this.shown.version) return;
        if (message.type === "table" && this.shown?.type === "table" && sameTable(this.shown, message) && !this.notice) return; // nothing new to draw
        if (message.type === "table") this.say(announcement(this.shown?.type === "table" ? this.shown : null, message, this.words));
        if (message.type === "lobby" && this.shown?.type === "table" && message.last_result?.["game_id"] === this.shown.game_id) {
          // The game just ended here: its last trick or round stays a moment, then the result.
          this.resultAt = Date.now() + FINAL_TABLE_MS;
          window.setTimeout(() => this.draw(), FINAL_TABLE_MS);
        }
        if (message.type === "lobby" || (this.shown?.type === "table" && this.shown.game_id !== message.game_id)) {
          this.dropIn.confirming = null;
          if (message.type === "lobby" && message.lobby !== null) this.dropIn.waiting = false; // seated, or not
        }
        this.shown = message;
        if (Date.now() >= this.noticeUntil) this.notice = "";
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

  /** Hands ``message`` to the socket; true once sent (else the page says why). */
  private send(message: ClientMessage): boolean {
    const sent = this.link?.send(message) ?? "closed";
    if (sent === "sent") return true;
    this.notice = sent === "busy" ? this.words._("One moment: too many presses at once.") : this.words._("Not connected: trying again…");
    this.draw();
    return false;
  }

  /** Share: the server uploads the final table's picture and answers ``shared`` with its URL. */
  private share(gameId: number): void {
    if (!this.send({ type: "share", game_id: gameId })) return;
    this.sharing = gameId;
    this.draw();
  }

  /** One of Discord's dialogs; if the client refuses it (a DM, no permission), the page says so. */
  private async openDialog(open: (dialogs: Dialogs) => Promise<void>, failed: string): Promise<void> {
    const dialogs = this.dialogs;
    if (!dialogs) return;
    try {
      await open(dialogs);
    } catch {
      this.notice = failed;
      this.noticeUntil = Date.now() + NOTICE_MS;
      this.draw();
    }
  }

  private lobbyOp(op: LobbyOp, extra?: LobbyExtra): void {
    this.notice = "";
    this.send({ type: "lobby", op, ...extra });
  }

  private act(move: Move): void {
    const table = this.shown;
    if (table?.type !== "table" || table.step === null) return;
    if (!this.send({ type: "move", game_id: table.game_id, step: table.step, action: move.action })) return;
    this.memory.sent = table.step; // on its way: the step's moves wait for its answer
    this.draw();
  }

  private tick(): void {
    for (const element of this.root.querySelectorAll<HTMLElement>(".timer[data-deadline]")) {
      const seconds = secondsLeft(Number(element.dataset["deadline"]), Date.now());
      if (seconds !== null) element.textContent = `⏱ ${clock(seconds)}`;
    }
  }

  /** A finished game: its result screen (after the final table's moment), then the final
   * table itself, without moves. */
  private drawFinish(ending: Ending, message: LobbyMessage): HTMLElement {
    const w = this.words;
    const result = Date.now() >= this.resultAt
      ? drawEnding(ending, w, (gameId) => this.send({ type: "lobby", op: "play_again", game_id: gameId }),
        { send: this.dialogs ? (gameId) => this.share(gameId) : null, waiting: this.sharing === ending.game_id })
      : null;
    const board = ending.table
      ? h("section", { class: "final-table", "aria-label": w._("The final table") },
        drawTable(ending.table, w, this.memory, { act: () => undefined, redraw: () => this.draw() }))
      : null;
    const next = message.can_post === false
      ? drawCannotPost(w, () => void this.send({ type: "lobby", op: "check" }), true)
      : h("section", { class: "next-game" }, h("h2", {}, w._("Start the next game")),
        drawOpeners(openers(message, w), (op, extra) => this.lobbyOp(op, extra)));
    return h("div", { class: "lobby finish" }, result, next, board);
  }

  private draw(): void {
    if (this.hold.holds()) return; // drawn when the press ends
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
      const table = drawTable(this.shown, w, this.memory, { act: (move) => this.act(move), redraw: () => this.draw() });
      const screen = dropInScreen(this.shown, this.dropIn, w);
      const gameId = this.shown.game_id;
      const bar = screen && drawDropIn(screen, (op, extra) => this.lobbyOp(op, extra),
        () => { this.dropIn.confirming = gameId; this.draw(); },
        () => { this.dropIn.confirming = null; this.draw(); });
      // A spectator reads first that they watch (and can have the next game); a player's
      // way out lies under the table.
      if (this.shown.seat === null) parts.push(bar, table);
      else parts.push(table, bar);
    } else if (this.shown?.type === "lobby") {
      const shown = this.shown;
      const ending = shown.lobby === null ? endingOf(shown.last_result, finalTable(shown.last_result)) : null;
      const check = (): void => void this.send({ type: "lobby", op: "check" });
      if (ending) parts.push(this.drawFinish(ending, shown));
      else if (shown.lobby === null && shown.can_post === false) parts.push(drawCannotPost(w, check));
      else {
        const invite = this.dialogs ? () => void this.openDialog((dialogs) => dialogs.invite(), w._("Discord could not open its invite dialog here.")) : null;
        parts.push(drawLobby(shown, w, (op, extra) => this.lobbyOp(op, extra), invite));
      }
    }
    this.flights.measure(this.root);
    patchChildren(this.root, parts.filter((p): p is HTMLElement => p !== null));
    // The page can first be used: the first of its table's or lobby's controls is drawn enabled.
    if (!performance.getEntriesByName(INTERACTIVE).length && this.root.querySelector(PRESSABLE)) performance.mark(INTERACTIVE);
    if (focusKey) {
      const again = this.root.querySelector<HTMLElement>(`[data-action="${CSS.escape(focusKey)}"], [data-lobby="${CSS.escape(focusKey)}"], [data-cell="${CSS.escape(focusKey)}"]`);
      if (again && again !== document.activeElement) again.focus();
    }
    this.flights.play(this.root);
  }
}

const root = document.getElementById("app");
if (root) void new Page(root).start();
