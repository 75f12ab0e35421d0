// One seat at the table: its badge (a letter, or a computer's mark), the player's name, the
// counts, marks and score the game's view gives, and a ring and a timer while it is to act.

import type { Ctx, GameView } from "./context";
import { h } from "./dom";
import { initial, type Side } from "./layout";
import { clock, secondsLeft } from "./timer";

export interface SeatSpot {
  side: Side | "bottom";
  order: number;
}

/** When seat ``i``'s turn ends: its own deadline, else (the viewer's seat) the frame's. */
export function seatDeadline(ctx: Ctx, i: number): number | null {
  const own = ctx.table.seats[i]?.deadline ?? null;
  if (own !== null) return own;
  return i === ctx.table.seat ? ctx.table.deadline : null;
}

export function drawSeat(ctx: Ctx, view: GameView, i: number, spot: SeatSpot): HTMLElement {
  const table = ctx.table;
  const w = ctx.words;
  const seat = table.seats[i];
  const name = seat?.name ?? `#${i + 1}`;
  const acting = table.to_act.includes(i);
  const marks: string[] = [];
  if (acting) marks.push("▶ " + w._("to play"));
  const winners = (table.view["outcome"] as { winners?: number[] } | null)?.winners ?? [];
  if (table.status === "finished" && winners.includes(i)) marks.push("★ " + w._("winner"));
  const computer = seat?.computer === true;
  const badge = h("span", { class: computer ? "badge computer" : "badge", "aria-hidden": "true" }, computer ? "🤖" : initial(name));
  const who = h("span", { class: "who" },
    h("span", { class: "name" }, name),
    computer && seat.level ? h("span", { class: "level" }, ` (${seat.level})`) : null,
    seat?.you ? h("span", { class: "you-mark" }, " · " + w._("you")) : null);
  const deadline = acting ? seatDeadline(ctx, i) : null;
  const seconds = secondsLeft(deadline, Date.now());
  const classes = ["seat", acting ? "acting" : "", seat?.you ? "you" : "", computer ? "computer" : ""];
  const box = h("div", {
    class: classes.filter(Boolean).join(" "), role: "listitem", "data-seat": i, "data-side": spot.side,
    style: `order: ${spot.order}`,
  },
  h("div", { class: "seat-head" }, badge,
    h("div", { class: "seat-text" }, who,
      h("span", { class: "facts" }, [...marks, ...view.seatFacts(ctx, i)].join(" · ")))),
  seconds === null ? null : h("span", { class: "timer", "data-deadline": deadline ?? "" }, `⏱ ${clock(seconds)}`));
  const area = view.seatArea?.(ctx, i) ?? null;
  if (area) box.append(area);
  return box;
}
