// 2-player Hearts: the trick on the table, the last trick, your hand, the other hand's backs.

import { h } from "../dom";
import { list, num, type GameView } from "../context";

interface Play {
  seat: number;
  card: string;
}

export const hearts: GameView = {
  heading(ctx) {
    const v = ctx.table.view;
    const w = ctx.words;
    const parts = [w._("Hand {n}", { n: num(v["hand_no"]) }), w._("trick {n} of 13", { n: num(v["trick_no"]) })];
    if (v["hearts_broken"] === true) parts.push("♥ " + w._("hearts are broken"));
    return parts.join(" · ");
  },

  seatFacts(ctx, seat) {
    const v = ctx.table.view;
    const w = ctx.words;
    const taken = list<{ points: number }>(v["taken"])[seat];
    return [
      w.ngettext("{n} card", "{n} cards", num(list<number>(v["hand_sizes"])[seat])),
      w.ngettext("{n} point taken this hand", "{n} points taken this hand", taken?.points ?? 0),
      w.ngettext("{n} point", "{n} points", num(list<number>(v["totals"])[seat])),
    ];
  },

  body(ctx) {
    const v = ctx.table.view;
    const w = ctx.words;
    const me = ctx.table.seat;
    const other = me === null ? 1 : 1 - me;
    const backs = h("div", { class: "row fan" });
    for (let i = 0; i < num(list<number>(v["hand_sizes"])[other]); i++) {
      backs.append(ctx.card(null, { place: `hand:${other}`, small: true }));
    }
    const trick = h("div", { class: "row trick" });
    for (const play of list<Play>(v["trick"])) {
      const name = ctx.table.seats[play.seat]?.name ?? "";
      trick.append(h("figure", { class: "pile" }, ctx.card(play.card, { place: `trick:${play.seat}` }), h("figcaption", {}, name)));
    }
    if (trick.childElementCount === 0) trick.append(h("p", { class: "hint" }, w._("No card on the table yet.")));
    const parts: HTMLElement[] = [
      h("section", { class: "area", "aria-label": ctx.table.seats[other]?.name ?? "" }, backs),
      h("section", { class: "area", "aria-label": w._("The trick") }, h("h3", {}, w._("The trick")), trick),
    ];
    const last = v["last_trick"] as { cards?: Play[]; winner?: number } | null;
    if (last && Array.isArray(last.cards)) {
      const row = h("div", { class: "row" });
      for (const play of last.cards) row.append(ctx.card(play.card, { place: `last:${play.seat}`, small: true }));
      const winner = ctx.table.seats[last.winner ?? -1]?.name ?? "";
      parts.push(h("section", { class: "area" }, h("h3", {}, w._("Last trick, won by {name}", { name: winner })), row));
    }
    if (me !== null) {
      const hand = h("div", { class: "row hand fan" });
      for (const card of list<string>(v["hand"])) hand.append(ctx.card(card, { place: "hand", target: `hand:${card}` }));
      parts.push(h("section", { class: "area", "aria-label": w._("Your hand") }, h("h3", {}, w._("Your hand")), hand));
    }
    return h("div", { class: "game hearts" }, ...parts);
  },
};
