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
