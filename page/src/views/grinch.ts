// Grinch: the deck, every seat's discard pile, your hand, the Grinch's takes, the score sheet.

import { h } from "../dom";
import type { Ctx, GameView } from "../context";
import type { GrinchView } from "../generated/views";

function phaseText(ctx: Ctx<GrinchView>, phase: string): string {
  const w = ctx.words;
  switch (phase) {
    case "WHO_DISCARD": return w._("The Whos discard a card.");
    case "GRINCH_TAKE": return w._("The Grinch takes a card.");
    case "GRINCH_DISCARD": return w._("The Grinch discards a card.");
    case "SCORING": return w._("Everyone scores a row.");
    default: return "";
  }
}

export const grinch: GameView<GrinchView> = {
  heading(ctx) {
    const v = ctx.view;
    const round = ctx.words._("Round {round} of {rounds}", { round: v.round, rounds: v.rounds });
    const turn = ctx.words._("turn {turn}", { turn: v.turn });
    return [round, turn, phaseText(ctx, v.phase)].join(" · ");
  },

  seatFacts(ctx, seat) {
    const v = ctx.view;
    const w = ctx.words;
    const facts = [w.ngettext("{n} card", "{n} cards", v.hand_sizes[seat] ?? 0)];
    if (v.grinch === seat) facts.unshift("♛ " + w._("Grinch"));
    if (v.submitted.includes(seat)) facts.push("✓ " + w._("ready"));
    facts.push(w.ngettext("{n} point", "{n} points", v.totals[seat] ?? 0));
    return facts;
  },

  centre(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const pileRow = h("div", { class: "row piles" },
      ctx.spot(w._("Deck"), { place: "deck", target: "deck", count: v.deck_size }));
    v.piles.forEach((pile, seat) => {
      const top = pile[pile.length - 1];
      const name = ctx.table.seats[seat]?.name ?? `#${seat + 1}`;
      const holder = h("figure", { class: "pile" });
      holder.append(
        top !== undefined
          ? ctx.card(top, { place: `pile:${seat}`, target: `pile:${seat}` })
          : ctx.spot(w._("empty"), { place: `pile:${seat}`, target: `pile:${seat}` }),
        h("figcaption", {}, name + " · " + w.ngettext("{n} card", "{n} cards", pile.length)),
      );
      pileRow.append(holder);
    });
    const parts: HTMLElement[] = [h("section", { class: "area", "aria-label": w._("Piles") }, pileRow)];

    if (v.takes.length > 0) {
      const row = h("div", { class: "row" });
      v.takes.forEach((take, i) => row.append(ctx.card(take.card, { place: `take:${i}`, small: true })));
      parts.push(h("section", { class: "area", "aria-label": w._("The Grinch's takes") }, h("h3", {}, w._("The Grinch's takes")), row));
    }
    return h("div", { class: "game grinch" }, ...parts);
  },

  hand(ctx) {
    if (ctx.table.seat === null) return null;
    const v = ctx.view;
    const pending = v.my_pending;
    const row = h("div", { class: "row hand" });
    for (const card of v.hand ?? []) {
      row.append(ctx.card(card, { place: "hand", target: `hand:${card}`, chosen: card === pending }));
    }
    return h("section", { class: "area hand-area", "aria-label": ctx.words._("Your hand") }, row);
  },

  side(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const table = h("table", { class: "sheet" }, h("caption", {}, w._("Score sheet")));
    const head = h("tr", {}, h("th", {}, ""));
    ctx.table.seats.forEach((s) => head.append(h("th", { scope: "col" }, s.name)));
    table.append(head);
    for (const row of v.rows) {
      const tr = h("tr", {}, h("th", { scope: "row" }, w.pgettext("grinch", row.charAt(0).toUpperCase() + row.slice(1))));
      v.sheet.forEach((cells) => {
        const value = cells[row];
        tr.append(h("td", {}, value === null || value === undefined ? "·" : String(value)));
      });
      table.append(tr);
    }
    return h("section", { class: "area sheet-area" }, table);
  },
};
