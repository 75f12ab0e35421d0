// What a game's view module is given to draw its table, and what it gives back.

import type { Words } from "./i18n";
import type { Bound } from "./moves";
import type { Move, TableMessage, View } from "./protocol";

export interface CardOptions {
  /** Where the card lies ("hand", "pile:2", "trick"): its key for animations and tests. */
  place: string;
  /** The click target it stands for (see moves.targetOf), if any. */
  target?: string;
  /** Shown smaller (piles, other seats). */
  small?: boolean;
  /** Marked as chosen (a locked-in discard, a picked cell). */
  chosen?: boolean;
}

/** ``V``: the game's view as the engine types it (generated/views.ts), or the generic View. */
export interface Ctx<V = View> {
  table: TableMessage;
  /** ``table.view``, typed as the game's own view. */
  view: V;
  words: Words;
  bound: Bound;
  act(move: Move): void;
  /** A card of this game (``card`` null: face down), a button when its target has a move. */
  card(card: string | null, options: CardOptions): HTMLElement;
  /** A target that is not a card (the deck, an empty pile): a button when it has a move. */
  spot(label: string, options: CardOptions & { count?: number }): HTMLElement;
  /** Page state kept between tables of one game (Gnoming's first picked cell). */
  memory: Map<string, unknown>;
  redraw(): void;
}

export interface GameView<V = View> {
  /** The line under the title: round, turn, phase. */
  heading(ctx: Ctx<V>): string;
  /** Short facts about one seat for its place at the table ("5 cards", "Grinch"). */
  seatFacts(ctx: Ctx<V>, seat: number): string[];
  /** The middle of the table: the piles, the market, the row, the trick. */
  centre(ctx: Ctx<V>): HTMLElement;
  /** The viewer's own cards along the bottom (null: none, or a spectator). */
  hand(ctx: Ctx<V>): HTMLElement | null;
  /** What lies before one seat (a grid, a collection, the backs of a hand), if anything. */
  seatArea?(ctx: Ctx<V>, seat: number): HTMLElement | null;
  /** More for the side column beside the table (a score sheet). */
  side?(ctx: Ctx<V>): HTMLElement | null;
}
