// A game the page has no view of its own for: its view, key by key, as the engine sends it.
// The seats, the moves (all buttons), the last moves and the scores are the table's; its hand
// of card ids, if it has one, lies along the bottom.

import { h } from "../dom";
import type { GameView } from "../context";
import type { View } from "../generated/views";

export interface Entry {
  key: string;
  text: string;
}

// Keys the table around the view already shows, or that say nothing to a player.
const SHOWN = new Set(["game", "title", "players", "seat", "to_act", "phase", "round", "rounds", "outcome"]);

/** A view's value as short text: lists in brackets, objects as "key: value" pairs. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(describe).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${label(key)}: ${describe(item)}`).join("; ")}}`;
  }
  return String(value);
}

/** An engine key as words ("hand_sizes" -> "hand sizes"). */
export function label(key: string): string {
  return key.replace(/_/g, " ");
}

/** What the generic view lists: every key of the view but those the table shows already. */
export function entries(view: View): Entry[] {
  return Object.entries(view).filter(([key]) => !SHOWN.has(key)).map(([key, value]) => ({ key, text: describe(value) }));
}

/** A seat's facts: every key holding one number per seat ("hand sizes 3", "totals 12"). */
export function seatNumbers(view: View, seat: number, seats: number): string[] {
  const facts: string[] = [];
  for (const [key, value] of Object.entries(view)) {
    if (SHOWN.has(key) || !Array.isArray(value) || value.length !== seats || !value.every((v) => typeof v === "number")) continue;
    facts.push(`${label(key)} ${String(value[seat])}`);
  }
  return facts;
}

/** The viewer's own cards, when the view has a ``hand`` of card ids. */
export function handOf(view: View): string[] {
  const hand = view["hand"];
  return Array.isArray(hand) && hand.every((card) => typeof card === "string") ? hand : [];
}

export const generic: GameView = {
  heading(ctx) {
    const v = ctx.view;
    const parts: string[] = [];
    if (typeof v["round"] === "number" && typeof v["rounds"] === "number") {
      parts.push(ctx.words._("Round {round} of {rounds}", { round: v["round"], rounds: v["rounds"] }));
    }
    if (typeof v["phase"] === "string") parts.push(label(v["phase"]));
    return parts.join(" · ");
  },

  seatFacts(ctx, seat) {
    return seatNumbers(ctx.view, seat, ctx.table.seats.length);
  },

  centre(ctx) {
    const list = h("dl", { class: "view-entries" });
    for (const entry of entries(ctx.view)) {
      list.append(h("dt", {}, label(entry.key)), h("dd", { "data-key": entry.key }, entry.text));
    }
    return h("div", { class: "game generic", "data-generic": "" }, h("section", { class: "area" }, list));
  },

  hand(ctx) {
    const hand = handOf(ctx.view);
    if (ctx.table.seat === null || hand.length === 0) return null;
    const row = h("div", { class: "row hand" });
    for (const card of hand) row.append(ctx.card(card, { place: "hand" }));
    return h("section", { class: "area hand-area", "aria-label": ctx.words._("Your hand") }, row);
  },
};
