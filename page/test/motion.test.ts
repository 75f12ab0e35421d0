import { describe, expect, it } from "vitest";
import { atSeat, MAX_ARRIVALS, MOTION_MS, plan, type Box, type Scene, type Spot } from "../src/motion";

const box = (left: number, top: number, width = 60, height = 84): Box => ({ left, top, width, height });
const spot = (card: string | null, place: string, at: Box): Spot => ({ card, place, box: at });

// Two seats: the viewer (0) at the bottom, the other (1) at the top; a deck in the middle.
function scene(cards: Spot[], options: Partial<Scene> = {}): Scene {
  return {
    game: "hearts:4", cards, deck: null, movers: [0], me: 0,
    seats: new Map([[0, box(300, 700, 36, 36)], [1, box(300, 20, 36, 36)]]),
    ...options,
  };
}

const hand = (card: string, i: number): Spot => spot(card, "hand", box(100 + 70 * i, 600));

describe("which card flies from where to where", () => {
  it("flies a card played from the hand to the trick", () => {
    const before = scene([hand("QS", 0), hand("2C", 1)]);
    const after = scene([hand("2C", 1), spot("QS", "trick:0", box(320, 300))], { movers: [1] });
    const flights = plan(before, after, false);
    expect(flights).toHaveLength(1);
    expect(flights[0]).toMatchObject({ from: box(100, 600), to: box(320, 300), gone: false });
    expect(flights[0]?.spot.card).toBe("QS");
  });

  it("flies another player's card from their seat to the middle", () => {
    const before = scene([hand("2C", 0)], { movers: [1] });
    const after = scene([hand("2C", 0), spot("KH", "trick:1", box(400, 300))]);
    const [flight] = plan(before, after, false);
    expect(flight?.to).toEqual(box(400, 300));
    expect(flight?.from).toEqual(atSeat(box(300, 20, 36, 36), box(400, 300)));
    expect(flight?.from.width).toBe(60); // the card's own size, from the seat's middle
  });

  it("flies a card drawn from the deck to the mover's hand", () => {
    const deck = { box: box(200, 300), count: 20 };
    const before = scene([hand("W3a", 0)], { deck });
    const after = scene([hand("W3a", 0), hand("P5b", 1)], { deck: { box: box(200, 300), count: 19 } });
    const flights = plan(before, after, false);
    expect(flights.map((f) => [f.spot.card, f.from])).toEqual([["P5b", box(200, 300)]]);
  });

  it("flies a trick's cards to the seat that took them when they leave the table", () => {
    const before = scene([spot("QS", "trick:0", box(320, 300)), spot("KS", "trick:1", box(400, 300))], { movers: [1] });
    const after = scene([hand("2C", 0)], { movers: [1] });
    const flights = plan(before, after, false);
    expect(flights.map((f) => f.spot.card)).toEqual(["QS", "KS"]);
    expect(flights.every((f) => f.gone && f.to.top === 20 + (36 - 84) / 2)).toBe(true);
  });

  it("flies neither a pile's covered top away nor the card under a taken top in", () => {
    const before = scene([spot("P5", "discard:A", box(200, 300)), spot("W3", "pile:1", box(300, 300))], { movers: [1] });
    const after = scene([spot("N2", "discard:A", box(200, 300)), spot("W2", "pile:1", box(300, 300))], { movers: [0] });
    expect(plan(before, after, false)).toEqual([]);
  });

  it("keeps a card that stayed, and a face-down card, still", () => {
    const before = scene([hand("2C", 0), spot(null, "hand:1", box(300, 60))]);
    const after = scene([spot("2C", "hand", box(140, 600)), spot(null, "hand:1", box(320, 60))]);
    expect(plan(before, after, false)).toEqual([]);
  });

  it("pairs repeated faces place by place (Ten has several Red 5s)", () => {
    const before = scene([spot("R5", "row:0", box(100, 300)), spot("R5", "coll:0:R:0", box(100, 650))]);
    const after = scene([spot("R5", "coll:0:R:0", box(100, 650)), spot("R5", "coll:0:R:1", box(130, 650))]);
    const flights = plan(before, after, false);
    expect(flights.map((f) => [f.from, f.spot.place])).toEqual([[box(100, 300), "coll:0:R:1"]]);
  });

  it("flies nothing with reduced motion, for a first table or another game's", () => {
    const before = scene([hand("QS", 0)]);
    const after = scene([spot("QS", "trick:0", box(320, 300))]);
    expect(plan(before, after, false)).toHaveLength(1);
    expect(plan(before, after, true)).toEqual([]);
    expect(plan(null, after, false)).toEqual([]);
    expect(plan({ ...before, game: "hearts:5" }, after, false)).toEqual([]);
  });

  it("does not fly a new deal in from nowhere", () => {
    const dealt = Array.from({ length: MAX_ARRIVALS + 1 }, (_, i) => spot(`${i + 2}H`, "trick:1", box(100 + 10 * i, 300)));
    expect(plan(scene([], { movers: [1] }), scene(dealt), false)).toEqual([]);
  });

  it("takes at most 300 ms", () => {
    expect(MOTION_MS).toBeGreaterThan(0);
    expect(MOTION_MS).toBeLessThanOrEqual(300);
  });
});
