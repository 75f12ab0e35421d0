// One seat at the table: its badge (the player's Discord avatar, else a letter; a computer's
// mark), the player's name in the server, the counts, marks and score the game's view gives,
// and a ring and a timer while it is to act.

import type { Ctx, GameView } from "./context";
import { h, svgBox } from "./dom";
import type { Words } from "./i18n";
import { initial, type Side } from "./layout";
import { clock, secondsLeft } from "./timer";

// A computer's badge: a plain robot's head, drawn (not an emoji, which a device may lack).
const ROBOT =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2v3" stroke="currentColor" stroke-width="2"/>' +
  '<circle cx="12" cy="2.5" r="1.5" fill="currentColor"/><rect x="4" y="6" width="16" height="13" rx="3" fill="currentColor"/>' +
  '<circle cx="9" cy="12" r="2" fill="#1e4634"/><circle cx="15" cy="12" r="2" fill="#1e4634"/>' +
  '<rect x="8" y="16" width="8" height="1.6" fill="#1e4634"/></svg>';

/** A computer's level in the viewer's language ("computer" for a level the page does not know). */
export function levelName(level: string | null, words: Words): string {
  switch (level) {
    case "easy": return words._("computer, {level}", { level: words.pgettext("computer level", "easy") });
    case "normal": return words._("computer, {level}", { level: words.pgettext("computer level", "normal") });
    case "hard": return words._("computer, {level}", { level: words.pgettext("computer level", "hard") });
    default: return words._("computer");
  }
}

// Where avatars are loaded from (discord.ts's cdnBase): null draws letters only.
let avatarBase: string | null = null;
// Avatars that could not be loaded: their seats keep the letter on every later drawing.
const failed = new Set<string>();

export function setAvatarBase(base: string | null): void {
  avatarBase = base;
}

/** An avatar's address under ``base`` (null: no avatar to show). */
export function avatarUrl(base: string | null, path: string | null | undefined): string | null {
  if (!base || !path) return null;
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** A person's badge: their avatar, which gives way to their letter if it cannot be loaded. */
function personBadge(name: string, avatar: string | null | undefined): HTMLElement {
  const letter = h("span", { class: "badge" }, initial(name));
  const url = avatarUrl(avatarBase, avatar);
  if (!url || failed.has(url)) return letter;
  const image = h("img", { class: "badge avatar", src: url, alt: "", width: 40, height: 40, loading: "lazy", decoding: "async" });
  image.addEventListener("error", () => {
    failed.add(url);
    letter.setAttribute("aria-hidden", "true");
    image.replaceWith(letter);
  });
  return image;
}

export interface SeatSpot {
  side: Side | "bottom";
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
  const badge = computer ? svgBox(ROBOT, "badge computer") : personBadge(name, seat?.avatar);
  badge.setAttribute("aria-hidden", "true");
  const who = h("span", { class: "who" },
    h("span", { class: "name" }, name),
    computer ? h("span", { class: "level" }, ` (${levelName(seat.level, w)})`) : null,
    seat?.you ? h("span", { class: "you-mark" }, " · " + w._("you")) : null);
  const deadline = acting ? seatDeadline(ctx, i) : null;
  const seconds = secondsLeft(deadline, Date.now());
  const classes = ["seat", acting ? "acting" : "", seat?.you ? "you" : "", computer ? "computer" : ""];
  const box = h("div", {
    class: classes.filter(Boolean).join(" "), role: "listitem", "data-seat": i, "data-side": spot.side,
  },
  h("div", { class: "seat-head" }, badge,
    h("div", { class: "seat-text" }, who,
      h("span", { class: "facts" }, [...marks, ...view.seatFacts(ctx, i)].join(" · ")))),
  seconds === null ? null : h("span", { class: "timer", "data-deadline": deadline ?? "" }, `⏱ ${clock(seconds)}`));
  const area = view.seatArea?.(ctx, i) ?? null;
  if (area) box.append(area);
  return box;
}
