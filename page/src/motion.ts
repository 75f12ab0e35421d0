// Each move seen: a card that changed places between two tables flies from where it was to
// where it lies now (hand to pile, deck to hand, trick to the last trick, another player's
// card from their seat to the middle), and one that left the table flies to the seat that took
// it. First, last, invert, play: the places are measured before and after the redraw and the
// card is drawn where it lands at once, moved back by a transform that the Web Animations API
// takes away. Nothing waits for a flight: the buttons are where they land from the start, a
// flying card lets presses through, and a new table ends the flights still going before it is
// measured. With ``prefers-reduced-motion: reduce`` nothing moves.

/** How long a card flies: well within the 300 ms a move may take to be seen. */
export const MOTION_MS = 240;
/** More cards than this coming at once from nowhere is a new deal: they are not flown. */
export const MAX_ARRIVALS = 4;
/** More cards than this leaving the table at once (a new round): they are not flown. */
export const MAX_LEAVING = 8;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A card on the table: its face (null: face down), its place ("hand", "trick:1") and box. */
export interface Spot<E = unknown> {
  card: string | null;
  place: string;
  box: Box;
  element?: E;
}

/** Where everything lies on one table: its cards, the deck, the seats, who was to act. */
export interface Scene<E = unknown> {
  game: string;
  cards: Spot<E>[];
  deck: { box: Box; count: number } | null;
  seats: Map<number, Box>;
  movers: number[];
  me: number | null;
}

/** One card's flight: ``card`` of the scene after the redraw (``to``, ``from`` its boxes) or,
 * for a card that left the table, ``gone`` of the scene before it. */
export interface Flight<E = unknown> {
  from: Box;
  to: Box;
  spot: Spot<E>;
  gone: boolean;
}

function moved(a: Box, b: Box): boolean {
  return Math.abs(a.left - b.left) >= 1 || Math.abs(a.top - b.top) >= 1;
}

/** A card's box ``card`` moved to the middle of ``seat``'s box (a seat is where it goes or
 * comes from, at the card's own size). */
export function atSeat(seat: Box, card: Box): Box {
  return {
    left: seat.left + (seat.width - card.width) / 2,
    top: seat.top + (seat.height - card.height) / 2,
    width: card.width,
    height: card.height,
  };
}

/** Whether ``place`` is the viewer's own hand (its cards come from the deck or nowhere). */
function ownPlace(place: string, me: number | null): boolean {
  return place === "hand" || (me !== null && place.startsWith(`grid:${me}:`));
}

/** The seat a place names ("trick:1", "hand:2", "grid:3:4"), if any. */
function placeSeat(place: string): number | null {
  const match = /^(?:trick|hand|grid|last|coll):(\d+)/.exec(place);
  return match ? Number(match[1]) : null;
}

/** Which cards fly between two scenes of the same game, from where to where. None with reduced
 * motion, for a first table or another game's. */
export function plan<E>(before: Scene<E> | null, after: Scene<E>, reduced: boolean): Flight<E>[] {
  if (reduced || before === null || before.game !== after.game) return [];
  const flights: Flight<E>[] = [];
  // Each face's places before: a place still holding it keeps it; the others are left.
  const left = new Map<string, Spot<E>[]>();
  for (const spot of before.cards) {
    if (spot.card === null) continue;
    const list = left.get(spot.card);
    if (list) list.push(spot);
    else left.set(spot.card, [spot]);
  }
  const stayed = new Set<Spot<E>>();
  const fresh: Spot<E>[] = [];
  for (const spot of after.cards) {
    if (spot.card === null) continue;
    const list = left.get(spot.card) ?? [];
    const same = list.findIndex((old) => old.place === spot.place);
    if (same >= 0) {
      stayed.add(spot);
      list.splice(same, 1);
    }
  }
  for (const spot of after.cards) {
    if (spot.card === null || stayed.has(spot)) continue;
    const old = left.get(spot.card)?.shift();
    if (old) flights.push({ from: old.box, to: spot.box, spot, gone: false });
    else fresh.push(spot);
  }
  // A place that lost its card and holds another now (a pile's top covered, or taken to show
  // the one under it): the card there did not come from a seat, nor did the old one go to one.
  const gone = [...left.values()].flat();
  const emptied = new Set(gone.map((old) => old.place));
  const held = new Set(after.cards.map((now) => now.place));
  // Cards that came from nowhere on the table: from the deck, as many as it lost; else from
  // the seat that played them (another player's card to the middle).
  let fromDeck = before.deck && after.deck ? Math.max(0, before.deck.count - after.deck.count) : 0;
  if (fresh.length <= MAX_ARRIVALS) {
    for (const spot of fresh) {
      if (fromDeck > 0 && before.deck) {
        fromDeck--;
        flights.push({ from: before.deck.box, to: spot.box, spot, gone: false });
        continue;
      }
      if (ownPlace(spot.place, after.me) || emptied.has(spot.place)) continue;
      const seat = placeSeat(spot.place) ?? before.movers.find((s) => s !== after.me) ?? null;
      const from = seat === null || seat === after.me ? undefined : before.seats.get(seat);
      if (from) flights.push({ from: atSeat(from, spot.box), to: spot.box, spot, gone: false });
    }
  }
  // Cards that left the table: to the seat that was to act (who took them).
  const taker = before.movers[0];
  const to = taker === undefined ? undefined : after.seats.get(taker);
  if (to && gone.length <= MAX_LEAVING) {
    for (const spot of gone) {
      if (!held.has(spot.place)) flights.push({ from: spot.box, to: atSeat(to, spot.box), spot, gone: true });
    }
  }
  return flights.filter((flight) => moved(flight.from, flight.to));
}
