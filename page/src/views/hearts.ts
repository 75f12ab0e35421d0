// 2-player Hearts: the trick on the table, the last trick, your hand, the other hand's backs.

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

  body(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const me = ctx.table.seat;
    const other = me === null ? 1 : 1 - me;
    const backs = h("div", { class: "row fan" });
    for (let i = 0; i < (v.hand_sizes[other] ?? 0); i++) {
      backs.append(ctx.card(null, { place: `hand:${other}`, small: true }));
    }
    const trick = h("div", { class: "row trick" });
    for (const play of v.trick) {
      const name = ctx.table.seats[play.seat]?.name ?? "";
      trick.append(h("figure", { class: "pile" }, ctx.card(play.card, { place: `trick:${play.seat}` }), h("figcaption", {}, name)));
    }
    if (trick.childElementCount === 0) trick.append(h("p", { class: "hint" }, w._("No card on the table yet.")));
    const parts: HTMLElement[] = [
      h("section", { class: "area", "aria-label": ctx.table.seats[other]?.name ?? "" }, backs),
      h("section", { class: "area", "aria-label": w._("The trick") }, h("h3", {}, w._("The trick")), trick),
    ];
    const last = v.last_trick;
    if (last) {
      const row = h("div", { class: "row" });
      for (const play of last.cards) row.append(ctx.card(play.card, { place: `last:${play.seat}`, small: true }));
      const winner = ctx.table.seats[last.winner]?.name ?? "";
      parts.push(h("section", { class: "area" }, h("h3", {}, w._("Last trick, won by {name}", { name: winner })), row));
    }
    if (me !== null) {
      const hand = h("div", { class: "row hand fan" });
      for (const card of v.hand) hand.append(ctx.card(card, { place: "hand", target: `hand:${card}` }));
      parts.push(h("section", { class: "area", "aria-label": w._("Your hand") }, h("h3", {}, w._("Your hand")), hand));
    }
    return h("div", { class: "game hearts" }, ...parts);
  },
};
