// Ten: the row of turned cards and its limits, the auction and the market in the middle; each
// player's collection before their seat.

import { h } from "../dom";
import type { Ctx, GameView } from "../context";
import type { TenView } from "../generated/views";

function phaseText(ctx: Ctx<TenView>, phase: string): string {
  const w = ctx.words;
  switch (phase) {
    case "draw": return w._("Draw or stop.");
    case "bid": return w._("Bid for the wild card.");
    case "pay": return w._("Pay for the wild card.");
    case "reward": return w._("Take the numbers or the currency.");
    case "buy": case "final_buy": return w._("Buy a card from the market.");
    case "solo_wild": return w._("Buy the wild card or decline.");
    default: return "";
  }
}

export const ten: GameView<TenView> = {
  heading(ctx) {
    const v = ctx.view;
    return [ctx.words._("Turn {n}", { n: v.turns + 1 }), phaseText(ctx, v.phase)].join(" · ");
  },

  seatFacts(ctx, seat) {
    const w = ctx.words;
    const info = ctx.view.seats[seat];
    if (!info) return [];
    return [
      w.ngettext("{n} point", "{n} points", info.score),
      "◎ " + w.ngettext("{n} currency token", "{n} currency tokens", info.tokens),
      "✖ " + w.ngettext("{n} bust token", "{n} bust tokens", info.bust_tokens),
    ];
  },

  centre(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const row = h("div", { class: "row" },
      ctx.spot(w._("Deck"), { place: "deck", target: "deck", count: v.deck_size }));
    v.row.forEach((card, i) => row.append(ctx.card(card, { place: `row:${i}` })));
    const limits = h("p", { class: "limits" },
      w._("Numbers {numbers} − currency {currency} = {net}", { numbers: v.row_numbers, currency: v.row_currency, net: v.net }) +
      " · " + w._("{n} more is safe", { n: v.net_room }));
    const parts: HTMLElement[] = [h("section", { class: "area", "aria-label": w._("The row") }, h("h3", {}, w._("The row")), row, limits)];
    const auction = v.auction;
    if (auction) {
      parts.push(h("section", { class: "area" }, h("h3", {}, w._("Auction")),
        h("div", { class: "row" }, ctx.card(auction.wild, { place: "auction" }), h("p", {}, w._("Highest bid: {n}", { n: auction.high })))));
    }
    const market = v.market;
    if (market.length > 0) {
      const shelf = h("div", { class: "row" });
      market.forEach((card, i) => shelf.append(ctx.card(card, { place: `market:${i}`, small: true })));
      parts.push(h("section", { class: "area" }, h("h3", {}, w._("Market")), shelf));
    }
    return h("div", { class: "game ten" }, ...parts);
  },

  hand() {
    return null; // a player's cards are their collection, before their seat
  },

  seatArea(ctx, seat) {
    const v = ctx.view;
    const info = v.seats.find((s) => s.seat === seat);
    if (!info) return null;
    const box = h("div", { class: "collection", "aria-label": ctx.words._("Collections") });
    for (const colour of [...v.colours, "W"]) {
      const cards = info.by_colour[colour] ?? [];
      if (cards.length === 0) continue;
      const line = h("div", { class: "row tight" });
      cards.forEach((card, i) => line.append(ctx.card(card, { place: `coll:${info.seat}:${colour}:${i}`, small: true })));
      box.append(line);
    }
    return box.childElementCount > 0 ? box : null;
  },
};
