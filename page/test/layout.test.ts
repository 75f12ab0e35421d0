import { describe, expect, it } from "vitest";
import { initial, othersInOrder, seatsAround, sideCounts } from "../src/layout";

describe("seats around the table", () => {
  it("seats the others in play order after the viewer, the viewer left out", () => {
    expect(othersInOrder(4, 2)).toEqual([3, 0, 1]);
    expect(othersInOrder(2, 0)).toEqual([1]);
    expect(othersInOrder(3, null)).toEqual([0, 1, 2]); // a spectator sees every seat
  });

  it("puts two others along the top, then one on each side, then two from six", () => {
    expect(sideCounts(1)).toEqual({ left: 0, top: 1, right: 0 });
    expect(sideCounts(2)).toEqual({ left: 0, top: 2, right: 0 });
    expect(sideCounts(3)).toEqual({ left: 1, top: 1, right: 1 });
    expect(sideCounts(5)).toEqual({ left: 1, top: 3, right: 1 });
    expect(sideCounts(6)).toEqual({ left: 2, top: 2, right: 2 });
    expect(sideCounts(7)).toEqual({ left: 2, top: 3, right: 2 });
  });

  it("places every table of 2 to 7 seats with each other seat once, the next to play on the left", () => {
    for (let count = 2; count <= 7; count++) {
      for (const me of [null, ...Array.from({ length: count }, (_, i) => i)]) {
        const places = seatsAround(count, me);
        const seats = places.map((p) => p.seat).sort((a, b) => a - b);
        const expected = Array.from({ length: count }, (_, i) => i).filter((i) => i !== me);
        expect(seats).toEqual(expected);
        if (me !== null && count >= 4) expect(places[0]).toMatchObject({ seat: (me + 1) % count, side: "left" });
        if (me !== null && count >= 4) expect(places[places.length - 1]?.side).toBe("right");
      }
    }
    expect(seatsAround(5, 1).map((p) => [p.seat, p.side])).toEqual([[2, "left"], [3, "top"], [4, "top"], [0, "right"]]);
    expect(seatsAround(2, 1)).toEqual([{ seat: 0, side: "top" }]);
  });

  it("badges a name with its first letter", () => {
    expect(initial("ana")).toBe("A");
    expect(initial("  élodie")).toBe("É");
    expect(initial("😀 Bo")).toBe("😀");
    expect(initial("")).toBe("?");
  });
});
