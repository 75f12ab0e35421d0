// Gnoming A Round: the draw pile, the two discard piles and the held card in the middle; your
// 3x3 grid along the bottom, every other seat's before its seat.

import { h } from "../dom";
import type { Ctx, GameView } from "../context";
import type { GnomeCell, GnomeView } from "../generated/views";
import { openingCells, openingMove } from "../moves";

const FIRST = "gnome:first";

function phaseText(ctx: Ctx<GnomeView>, phase: string): string {
  const w = ctx.words;
  switch (phase) {
    case "opening": return w._("Everyone turns two cards face up.");
    case "draw": return w._("Draw a card.");
    case "play": return w._("Place the card or discard it.");
    case "bounce": return w._("Bounce the card or let it go.");
    case "discard": return w._("Choose a discard pile.");
    case "hazard_flips": return w._("Hazard: turn a card face up.");
    default: return "";
  }
}

function grid(ctx: Ctx<GnomeView>, seat: number, cells: GnomeCell[]): HTMLElement {
  const mine = seat === ctx.table.seat;
  const opening = mine && ctx.bound.pairs.size > 0;
  const first = opening ? (ctx.memory.get(FIRST) as number | undefined) ?? null : null;
  const open = opening ? openingCells(ctx.bound.pairs, first) : new Set<number>();
  if (first !== null) open.add(first); // picked again: unpicked
  const box = h("div", { class: "grid", role: "group", "aria-label": ctx.table.seats[seat]?.name ?? "" });
  cells.forEach((cell, i) => {
    const card = cell.up ? cell.card : null;
    if (opening && open.has(i)) {
      const element = ctx.card(card, { place: `grid:${seat}:${i}`, small: !mine, chosen: first === i });
      const button = h("button", {
        class: "card-button", "data-cell": i, "aria-pressed": first === i ? "true" : "false",
        // The cell and what lies in it ("Cell 3: face-down card").
        "aria-label": ctx.words._("Cell {n}", { n: i + 1 }) + ": " + (element.getAttribute("aria-label") ?? ""),
      }, element);
      button.onclick = () => {
        if (first === null || first === i) {
          ctx.memory.set(FIRST, first === i ? undefined : i);
          ctx.redraw();
          return;
        }
        const move = openingMove(ctx.bound.pairs, first, i);
        ctx.memory.delete(FIRST);
        if (move) ctx.act(move);
      };
      box.append(button);
    } else {
      box.append(ctx.card(card, { place: `grid:${seat}:${i}`, target: mine ? `cell:${i}` : "", small: !mine }));
    }
  });
  return box;
}

export const gnome: GameView<GnomeView> = {
  heading(ctx) {
    const v = ctx.view;
    const round = ctx.words._("Round {round} of {rounds}", { round: v.round, rounds: v.rounds });
    return [round, phaseText(ctx, v.phase)].join(" · ");
  },

  seatFacts(ctx, seat) {
    const v = ctx.view;
    const w = ctx.words;
    const facts = [
      w.ngettext("{n} face down", "{n} face down", v.face_down[seat] ?? 0),
      w._("showing {n}", { n: v.showing[seat] ?? 0 }),
      w.ngettext("{n} point", "{n} points", v.totals[seat] ?? 0),
    ];
    const lap = v.final_lap;
    if (lap && lap.first_out === seat) facts.unshift("⚑ " + w._("went out"));
    return facts;
  },

  centre(ctx) {
    const v = ctx.view;
    const w = ctx.words;
    const piles = v.discard;
    const centre = h("div", { class: "row piles" },
      ctx.spot(w._("Deck"), { place: "deck", target: "deck", count: v.draw_size }));
    for (const name of ["A", "B"]) {
      const pile = piles[name] ?? { top: null, size: 0 };
      const caption = h("figcaption", {}, name + " · " + w.ngettext("{n} card", "{n} cards", pile.size));
      const face = pile.top !== null
        ? ctx.card(pile.top, { place: `discard:${name}`, target: `discard:${name}` })
        : ctx.spot(w._("empty"), { place: `discard:${name}`, target: `discard:${name}` });
      centre.append(h("figure", { class: "pile" }, face, caption));
    }
    const held = v.held;
    if (held) {
      centre.append(h("figure", { class: "pile held" }, ctx.card(held.card, { place: "held" }), h("figcaption", {}, w._("Held card"))));
    }
    return h("div", { class: "game gnome" }, h("section", { class: "area" }, centre));
  },

  hand(ctx) {
    // The viewer's own grid is their hand: its cells are the moves.
    const me = ctx.table.seat;
    const cells = me === null ? undefined : ctx.view.grids[me];
    if (me === null || !cells) return null;
    return h("section", { class: "area hand-area seat-grid mine", "aria-label": ctx.words._("Your hand") }, grid(ctx, me, cells));
  },

  seatArea(ctx, seat) {
    const cells = ctx.view.grids[seat];
    return seat === ctx.table.seat || !cells ? null : h("div", { class: "seat-grid" }, grid(ctx, seat, cells));
  },
};
