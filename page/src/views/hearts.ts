// 2-player Hearts: the trick on the table, the last trick, your hand, the other hand's backs
// before its seat.

import { h } from "../dom";
import type { GameView } from "../context";
import type { HeartsView } from "../generated/views";

export const hearts: GameView<HeartsView> = {
  heading(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const parts = [w._("Hand {n}", { n: v.hand_no }), w._("trick {n} of 13", { n: v.trick_no })];
    if (v.hearts_broken) parts.push("♥ " + w._("hearts are broken"));
    return parts.join(" · ");
  },

  seatFacts(ctx, seat) {
    const v = ctx.view;
    const w = ctx.words;
    const taken = v.taken[seat];
    return [
      w.ngettext("{n} card", "{n} cards", v.hand_sizes[seat] ?? 0),
      w.ngettext("{n} point taken this hand", "{n} points taken this hand", taken?.points ?? 0),
      w.ngettext("{n} point", "{n} points", v.totals[seat] ?? 0),
    ];
  },

  centre(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const trick = h("div", { class: "row trick" });
    for (const play of v.trick) {
      const name = ctx.table.seats[play.seat]?.name ?? "";
      trick.append(h("figure", { class: "pile" }, ctx.card(play.card, { place: `trick:${play.seat}` }), h("figcaption", {}, name)));
    }
    if (trick.childElementCount === 0) trick.append(h("p", { class: "hint" }, w._("No card on the table yet.")));
    const parts: HTMLElement[] = [h("section", { class: "area", "aria-label": w._("The trick") }, h("h3", {}, w._("The trick")), trick)];
    const last = v.last_trick;
    if (last) {
      const row = h("div", { class: "row" });
      for (const play of last.cards) row.append(ctx.card(play.card, { place: `last:${play.seat}`, small: true }));
      const winner = ctx.table.seats[last.winner]?.name ?? "";
      parts.push(h("section", { class: "area" }, h("h3", {}, w._("Last trick, won by {name}", { name: winner })), row));
    }
    return h("div", { class: "game hearts" }, ...parts);
  },

  hand(ctx) {
    if (ctx.table.seat === null) return null;
    const hand = h("div", { class: "row hand" });
    for (const card of ctx.view.hand) hand.append(ctx.card(card, { place: "hand", target: `hand:${card}` }));
    return h("section", { class: "area hand-area", "aria-label": ctx.words._("Your hand") }, hand);
  },

  seatArea(ctx, seat) {
    // The backs of another player's hand, before their seat.
    if (seat === ctx.table.seat) return null;
    const backs = h("div", { class: "row fan" });
    for (let i = 0; i < (ctx.view.hand_sizes[seat] ?? 0); i++) {
      backs.append(ctx.card(null, { place: `hand:${seat}`, small: true }));
    }
    return backs;
  },
};
