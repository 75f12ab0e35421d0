// Where the seats sit around the table: the viewer at the bottom, the others clockwise from
// their left (the next to play sits on the left), on the left side, along the top, on the right.

export type Side = "left" | "top" | "right";

export interface Place {
  seat: number;
  side: Side;
}

/** The seats other than ``me`` in play order after ``me`` (a spectator: every seat, from 0). */
export function othersInOrder(count: number, me: number | null): number[] {
  const others: number[] = [];
  const start = me === null ? 0 : me + 1;
  for (let i = 0; i < count; i++) {
    const seat = (start + i) % count;
    if (seat !== me) others.push(seat);
  }
  return others;
}

/** How many of ``others`` seats sit on each side: up to two along the top alone, then one on
 * each side, then two on each side from six. */
export function sideCounts(others: number): Record<Side, number> {
  if (others <= 2) return { left: 0, top: others, right: 0 };
  const side = others >= 6 ? 2 : 1;
  return { left: side, top: others - 2 * side, right: side };
}

/** Each other seat's side around a table of ``count`` seats seen by ``me``, in play order. */
export function seatsAround(count: number, me: number | null): Place[] {
  const others = othersInOrder(count, me);
  const sides = sideCounts(others.length);
  return others.map((seat, order) => {
    const side: Side = order < sides.left ? "left" : order < sides.left + sides.top ? "top" : "right";
    return { seat, side };
  });
}

/** A name's badge: its first letter (or symbol), upper-cased; "?" for an empty name. */
export function initial(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toLocaleUpperCase() : "?";
}

// How the page is laid out: Discord says so (the SDK's ACTIVITY_LAYOUT_MODE_UPDATE and
// ORIENTATION_UPDATE), else the window's size does. "full": the table with its side column;
// "compact": one column, the seats as a strip (a short window, a phone on its side, a tile of
// Discord's grid); "pip": compact, and only what the player needs now (Discord's picture in
// picture). The layout is the root element's ``data-layout``, which style.css keys on.

export type Layout = "full" | "compact" | "pip";

/** The SDK's layout modes (LayoutModeTypeObject) and orientations (OrientationTypeObject). */
export const LAYOUT_MODE = { UNHANDLED: -1, FOCUSED: 0, PIP: 1, GRID: 2 } as const;
export const ORIENTATION = { UNHANDLED: -1, PORTRAIT: 0, LANDSCAPE: 1 } as const;

/** What Discord last said (null: nothing yet, or a value this page does not know). */
export interface Said {
  mode: number | null;
  orientation: number | null;
}

/** A window this short (CSS px), wider than tall, is laid out compact. */
export const SHORT = 420;

/** The layout for what Discord said and the window's size: picture in picture and a grid's
 * tile as Discord says; focused, unhandled or unsaid, by the size (a short window on its side
 * is compact), Discord's orientation standing for the window's when it gave one. */
export function layoutOf(said: Said, width: number, height: number): Layout {
  if (said.mode === LAYOUT_MODE.PIP) return "pip";
  if (said.mode === LAYOUT_MODE.GRID) return "compact";
  let landscape = width > height;
  if (said.orientation === ORIENTATION.PORTRAIT) landscape = false;
  if (said.orientation === ORIENTATION.LANDSCAPE) landscape = true;
  return landscape && height <= SHORT ? "compact" : "full";
}

/** The page's layout, kept on ``root`` (``data-layout``) as Discord's events and the window's
 * size change it; ``changed`` is told of a new one. */
export class LayoutKeeper {
  private said: Said = { mode: null, orientation: null };
  private shown: Layout | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly size: () => { width: number; height: number },
    private readonly changed: (layout: Layout) => void = () => undefined,
  ) {}

  /** Discord's ACTIVITY_LAYOUT_MODE_UPDATE. */
  mode(layoutMode: number): void {
    this.said = { ...this.said, mode: known(layoutMode, LAYOUT_MODE) };
    this.apply();
  }

  /** Discord's ORIENTATION_UPDATE. */
  orientation(screenOrientation: number): void {
    this.said = { ...this.said, orientation: known(screenOrientation, ORIENTATION) };
    this.apply();
  }

  /** The window was resized (or the page starts). */
  apply(): Layout {
    const { width, height } = this.size();
    const layout = layoutOf(this.said, width, height);
    this.root.dataset["layout"] = layout;
    if (layout !== this.shown) {
      this.shown = layout;
      this.changed(layout);
    }
    return layout;
  }
}

function known(value: number, kinds: Record<string, number>): number | null {
  return Object.values(kinds).includes(value) && value !== -1 ? value : null;
}
