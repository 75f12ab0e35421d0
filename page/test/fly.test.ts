// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { Flights, sceneOf } from "../src/fly";
import { Words } from "../src/i18n";
import { MOTION_MS } from "../src/motion";
import { patchChildren } from "../src/patch";
import { parseServerMessage, type TableMessage } from "../src/protocol";
import { drawTable, TableMemory } from "../src/table";

const en = new Words({}, "en");

// 2-player Hearts: the viewer (seat 0) plays the queen of spades from the hand to the trick.
function hearts(version: number, hand: string[], trick: { seat: number; card: string }[], toAct: number): TableMessage {
  const parsed = parseServerMessage(JSON.stringify({
    type: "table", game: "hearts", game_id: 4, version, seat: 0, step: version,
    view: {
      game: "hearts", players: 2, seat: 0, phase: "play", to_act: [toAct], hand_no: 1, trick_no: 1, hearts_broken: false,
      hand, hand_sizes: [hand.length, 13], trick, last_trick: null, taken: [{ points: 0 }, { points: 0 }], totals: [0, 0],
    },
    moves: toAct === 0 ? hand.map((card) => ({ action: `p.${card}`, label: `Play ${card}` })) : [],
    seats: [{ name: "Ana", you: true }, { name: "Bo" }], to_act: [toAct], deadline: null, last: [],
    panels: [], scores: null, status: "active", result: null,
  }));
  if (parsed?.type !== "table") throw new Error("not a table");
  return parsed;
}

// Boxes as a browser would lay them out: the hand along the bottom, the trick in the middle.
function layOut(): void {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const place = this.dataset["place"] ?? "";
    const card = this.dataset["card"] ?? "";
    const at = (x: number, y: number, w = 60, h = 84): DOMRect => ({ left: x, top: y, width: w, height: h, x, y, right: x + w, bottom: y + h, toJSON: () => ({}) });
    if (place === "hand") return at(card === "QS" ? 100 : 170, 600);
    if (place.startsWith("trick:")) return at(320, 300);
    if (place.startsWith("hand:")) return at(300, 40, 44, 62);
    if (this.classList.contains("badge")) return at(this.closest("[data-seat='1']") ? 300 : 310, this.closest("[data-seat='1']") ? 20 : 700, 36, 36);
    return at(0, 0, 400, 800);
  });
}

interface Fake { keyframes: Keyframe[]; options: KeyframeAnimationOptions; cancel: ReturnType<typeof vi.fn>; onfinish: unknown; oncancel: unknown }

function record(): Fake[] {
  const made: Fake[] = [];
  (HTMLElement.prototype as unknown as { animate: unknown }).animate = function (keyframes: Keyframe[], options: KeyframeAnimationOptions) {
    const fake: Fake = { keyframes, options, cancel: vi.fn(), onfinish: null, oncancel: null };
    made.push(fake);
    return fake;
  };
  return made;
}

function show(root: HTMLElement, flights: Flights, memory: TableMemory, table: TableMessage): void {
  flights.measure(root);
  patchChildren(root, [drawTable(table, en, memory, { act: () => undefined, redraw: () => undefined })]);
  flights.play(root);
}

afterEach(() => vi.restoreAllMocks());

describe("the flights on the page", () => {
  it("measures where the table's cards, deck, seats and movers are", () => {
    layOut();
    const root = document.createElement("div");
    patchChildren(root, [drawTable(hearts(1, ["QS", "2C"], [], 0), en, new TableMemory(), { act: () => undefined, redraw: () => undefined })]);
    const scene = sceneOf(root);
    expect(scene?.game).toBe("hearts:4");
    expect(scene?.cards.map((c) => [c.card, c.place])).toContainEqual(["QS", "hand"]);
    expect(scene?.movers).toEqual([0]);
    expect(scene?.me).toBe(0);
    expect(scene?.seats.get(1)).toMatchObject({ left: 300, top: 20 });
  });

  it("flies the card played from the hand to the trick within 300 ms, and ends it at the next table", () => {
    layOut();
    const made = record();
    const root = document.createElement("div");
    document.body.replaceChildren(root);
    const flights = new Flights(() => false);
    const memory = new TableMemory();
    show(root, flights, memory, hearts(1, ["QS", "2C"], [], 0));
    expect(made).toHaveLength(0); // the first table: nothing to fly from
    show(root, flights, memory, hearts(2, ["2C"], [{ seat: 0, card: "QS" }], 1));
    expect(made).toHaveLength(1);
    const [flight] = made;
    expect(flight?.options.duration).toBe(MOTION_MS);
    expect(Number(flight?.options.duration)).toBeLessThanOrEqual(300);
    expect(flight?.keyframes[0]?.transform).toBe("translate(-220px, 300px) scale(1, 1)"); // from the hand
    expect(flight?.keyframes[1]?.transform).toBe("none");
    const card = root.querySelector('[data-place="trick:0"]');
    expect(card?.classList.contains("flying")).toBe(true);
    expect(document.body.dataset["flights"]).toBe("1");

    show(root, flights, memory, hearts(3, ["2C"], [{ seat: 0, card: "QS" }], 1)); // a new table mid-flight
    expect(flight?.cancel).toHaveBeenCalled();
    expect(root.querySelector('[data-place="trick:0"]')?.classList.contains("flying")).toBe(false);
  });

  it("flies nothing with reduced motion", () => {
    layOut();
    const made = record();
    const root = document.createElement("div");
    const flights = new Flights(() => true);
    const memory = new TableMemory();
    show(root, flights, memory, hearts(1, ["QS", "2C"], [], 0));
    show(root, flights, memory, hearts(2, ["2C"], [{ seat: 0, card: "QS" }], 1));
    expect(made).toHaveLength(0);
  });
});
