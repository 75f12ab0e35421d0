// The table around every game: title and whose turn; the other seats around the table with
// their counts, marks and timers; the game's middle; the viewer's seat, hand and moves along
// the bottom; beside it the last moves, the scores and the DM's panels.

import { cardName, cardSvg } from "./cards";
import { newEntries } from "./changes";
import type { CardOptions, Ctx, GameView } from "./context";
import { h, svgBox } from "./dom";
import type { GameName, Views } from "./generated/views";
import type { Words } from "./i18n";
import { rich, stripped } from "./markdown";
import { bindMoves } from "./moves";
import type { Game, Move, TableMessage } from "./protocol";
import { seatsAround } from "./layout";
import { drawSeat } from "./seats";
import { generic } from "./views/generic";
import { gnome } from "./views/gnome";
import { grinch } from "./views/grinch";
import { hearts } from "./views/hearts";
import { ten } from "./views/ten";

// The games with a view of their own, each typed by its game's generated view; any other game
// (one added to the engine since) is drawn by the generic view.
const VIEWS: { [G in GameName]?: GameView<Views[G]> } = { grinch, gnome, hearts, ten };

/** The view that draws ``game``'s table: its own, else the generic one. The server's frame
 * carries the view of the game it names, so its own view reads it as that game's type. */
export function viewFor(game: Game): GameView {
  const own = Object.hasOwn(VIEWS, game) ? VIEWS[game as GameName] : undefined;
  return (own as GameView | undefined) ?? generic;
}

export function titleOf(game: Game, words: Words): string {
  return words.title(game);
}

/** What the table remembers between two drawings of one game. */
export class TableMemory {
  gameId = -1;
  places = new Set<string>();
  last: string[] = [];
  memory = new Map<string, unknown>();
  /** The step the viewer's move was sent for: until its answer comes (a table of another
   * step, a refusal, a new socket) that step's moves are not offered again, so a second press
   * on the table as it was is not sent as another move. */
  sent: number | null = null;

  reset(gameId: number): void {
    if (gameId === this.gameId) return;
    this.gameId = gameId;
    this.places = new Set();
    this.last = [];
    this.memory = new Map();
    this.sent = null;
  }

  /** The moves ``table`` offers now: none while a move sent for its step is on its way. */
  offered(table: TableMessage): readonly Move[] {
    this.reset(table.game_id);
    if (this.sent !== null && this.sent !== table.step) this.sent = null;
    return this.sent === null ? table.moves : [];
  }
}

export interface TableHandlers {
  act(move: Move): void;
  redraw(): void;
}

/** Whether two frames of a table show the same: the same game at the same version, all alike. */
export function sameTable(a: TableMessage, b: TableMessage): boolean {
  return a.game_id === b.game_id && a.version === b.version && a.step === b.step && JSON.stringify(a) === JSON.stringify(b);
}

function turnLine(table: TableMessage, words: Words): string {
  if (table.status === "finished") return words._("The game is over.");
  if (table.seat !== null && table.to_act.includes(table.seat)) return words._("Your turn.");
  const names = table.to_act.map((s) => table.seats[s]?.name ?? "?");
  return names.length ? words._("Waiting for {names}.", { names: names.join(", ") }) : "";
}

/** Draws ``table`` and returns it with the places its cards lie in (for the next diff). */
export function drawTable(table: TableMessage, words: Words, memory: TableMemory, handlers: TableHandlers): HTMLElement {
  const view = viewFor(table.game);
  const bound = bindMoves(table.game, memory.offered(table));
  const places: string[] = [];
  const seen = memory.places;
  const fresh = (key: string): boolean => seen.size > 0 && !seen.has(key);

  // A card is named for a screen reader by what it is ("7 of hearts"); a card that is a move
  // is a real button of that name, its move's own words in its tooltip.
  const wrap = (element: HTMLElement, options: CardOptions, name: string): HTMLElement => {
    const move = options.target ? bound.targets.get(options.target) : undefined;
    if (!move) {
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", name);
      element.title = name;
      return element;
    }
    const button = h("button", { type: "button", class: "card-button", "data-action": move.action, "aria-label": name, title: move.label }, element);
    button.onclick = () => handlers.act(move);
    return button;
  };

  const ctx: Ctx = {
    table, view: table.view, words, bound, memory: memory.memory,
    act: handlers.act,
    redraw: handlers.redraw,
    card(card, options) {
      const key = `${options.place}/${card ?? "?"}`;
      places.push(key);
      const classes = ["card", options.small ? "small" : "", options.chosen ? "chosen" : "", fresh(key) ? "arrive" : ""];
      const element = svgBox(cardSvg(table.game, card, words), classes.filter(Boolean).join(" "));
      element.dataset["place"] = options.place;
      if (card !== null) element.dataset["card"] = card;
      return wrap(element, options, cardName(table.game, card, words));
    },
    spot(label, options) {
      const count = options.count;
      const element = h("span", { class: "card spot", "data-place": options.place, "data-count": count },
        h("span", { class: "spot-label" }, label),
        count === undefined ? null : h("span", { class: "count" }, String(count)));
      const name = count === undefined ? label : label + ": " + words.ngettext("{n} card", "{n} cards", count);
      return wrap(element, options, name);
    },
  };

  const mine = table.seat !== null && table.to_act.includes(table.seat);
  const header = h("header", { class: "top" },
    h("h1", {}, titleOf(table.game, words)),
    h("p", { class: "heading" }, view.heading(ctx)),
    h("p", { class: mine ? "turn mine" : "turn" }, mine ? "▶ " : "", turnLine(table, words)));

  // The other seats around the table, on three sides; the viewer's own seat at the bottom.
  // In play order in the page (left, top, right), so a portrait strip needs no reordering
  // (and no style attribute, which the page's Content-Security-Policy refuses).
  const sides = { left: h("div", { class: "side-left" }), top: h("div", { class: "side-top" }), right: h("div", { class: "side-right" }) };
  for (const place of seatsAround(table.seats.length, table.seat)) {
    sides[place.side].append(drawSeat(ctx, view, place.seat, place));
  }
  const others = h("div", { class: "others", role: "list", "aria-label": words._("Players") },
    sides.left, sides.top, sides.right);

  const buttons = h("div", { class: "moves", role: "group", "aria-label": words._("Your moves") });
  for (const move of bound.rest) {
    const button = h("button", { type: "button", class: "move", "data-action": move.action }, stripped(move.label));
    button.onclick = () => handlers.act(move);
    buttons.append(button);
  }
  const bottom = h("section", { class: mine ? "mine acting" : "mine" });
  if (table.seat !== null) {
    bottom.append(h("div", { class: "own-seat", role: "list", "aria-label": words._("you") },
      drawSeat(ctx, view, table.seat, { side: "bottom" })));
  }
  const hand = view.hand(ctx);
  if (hand) bottom.append(hand);
  bottom.append(buttons);

  const board = h("div", { class: "board" }, others, h("section", { class: "centre" }, view.centre(ctx)), bottom);

  const added = new Set(newEntries(memory.last, table.last));
  const log = h("ol", { class: "last", "aria-label": words._("Last moves") });
  table.last.forEach((line, i) => {
    const isNew = memory.last.length > 0 && added.has(line) && i >= table.last.length - added.size;
    log.append(rich("li", { class: isNew ? "fresh" : "" }, line));
  });

  const totals = (table.view["totals"] ?? []) as number[];
  const scores = h("table", { class: "scores" }, h("caption", {}, words._("Scores")));
  table.seats.forEach((seat, i) => scores.append(h("tr", {}, h("th", { scope: "row" }, seat.name), h("td", {}, String(totals[i] ?? 0)))));

  const details = h("section", { class: "panels" });
  for (const panel of table.panels) {
    const box = h("details", { class: "panel" }, h("summary", {}, stripped(panel.title) || words._("Details")));
    if (panel.description) box.append(rich("p", { class: "description" }, panel.description));
    for (const [name, value] of panel.fields) box.append(h("p", {}, h("strong", {}, stripped(name)), " ", rich("span", {}, value)));
    if (panel.footer) box.append(rich("p", { class: "footer" }, panel.footer));
    details.append(box);
  }

  memory.places = new Set(places);
  memory.last = table.last;
  const side = h("aside", { class: "side" }, h("h3", {}, words._("Last moves")), log, scores, view.side?.(ctx) ?? null, details);
  return h("div", { class: `table game-${table.game}`, "data-game": table.game, "data-game-id": table.game_id, "data-version": table.version, "data-seats": table.seats.length },
    header, board, side);
}
