// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { h } from "../src/dom";
import { Words } from "../src/i18n";
import { keyOf, patchChildren } from "../src/patch";
import { parseServerMessage, type Move, type TableMessage } from "../src/protocol";
import { drawTable, sameTable, TableMemory, type TableHandlers } from "../src/table";

const en = new Words({}, "en");

function frame(data: Record<string, unknown>): TableMessage {
  const parsed = parseServerMessage(JSON.stringify(data));
  if (parsed?.type !== "table") throw new Error("not a table");
  return parsed;
}

// A game without a view of its own (tests/fifth): its hand and moves as buttons.
function fifth(version: number, hand: string[], step = version): TableMessage {
  return frame({
    type: "table", game: "fifth", game_id: 9, version, seat: 0, step,
    view: { game: "fifth", players: 2, seat: 0, phase: "play", round: 1, hand, hand_sizes: [hand.length, 3], totals: [0, version] },
    moves: hand.map((card) => ({ action: `p.${card}`, label: `Play ${card}` })),
    seats: [{ name: "Ana", you: true }, { name: "Bo" }], to_act: [0], deadline: null, last: [`move ${version}`],
    panels: [{ title: "Rules", description: "", fields: [], footer: "" }], scores: null, status: "active", result: null,
  });
}

// Gnoming's opening: the viewer picks two of their nine cells, the first one stays pressed
// ("lifted") until the second.
function gnome(version: number): TableMessage {
  const grid = Array.from({ length: 9 }, () => ({ card: null, up: false }));
  return frame({
    type: "table", game: "gnome", game_id: 4, version, seat: 0, step: 1,
    view: {
      game: "gnome", players: 2, seat: 0, phase: "opening", round: 1, rounds: 9, to_act: [0, 1],
      face_down: [9, 9], showing: [0, 0], totals: [0, 0], final_lap: null, held: null, draw_size: 80 - version,
      discard: { A: { top: "P5", size: 1 }, B: { top: null, size: 0 } }, grids: [grid, grid],
    },
    moves: [{ action: "op.0.1", label: "Turn 1 and 2" }, { action: "op.0.2", label: "Turn 1 and 3" }, { action: "op.1.2", label: "Turn 2 and 3" }],
    seats: [{ name: "Ana", you: true }, { name: "Bo" }], to_act: [0, 1], deadline: null, last: [],
    panels: [], scores: null, status: "active", result: null,
  });
}

/** A page's root that patches each drawing in, as main.ts does. */
function page(): { root: HTMLElement; show(table: TableMessage): void; acted: Move[]; memory: TableMemory } {
  const root = h("div", { id: "app" });
  document.body.replaceChildren(root);
  const memory = new TableMemory();
  const acted: Move[] = [];
  let shown: TableMessage | null = null;
  const handlers: TableHandlers = {
    act: (move) => {
      acted.push(move);
      if (shown?.step !== null && shown) memory.sent = shown.step;
      if (shown) patchChildren(root, [drawTable(shown, en, memory, handlers)]);
    },
    redraw: () => {
      if (shown) patchChildren(root, [drawTable(shown, en, memory, handlers)]);
    },
  };
  return {
    root, acted, memory,
    show(table) {
      shown = table;
      patchChildren(root, [drawTable(table, en, memory, handlers)]);
    },
  };
}

describe("the keyed redraw", () => {
  it("keeps the node of a card and a move still there, with its focus", () => {
    const p = page();
    p.show(fifth(1, ["3", "12", "7"]));
    const table = p.root.querySelector(".table");
    const twelve = p.root.querySelector<HTMLButtonElement>('[data-action="p.12"]');
    const hand = Array.from(p.root.querySelectorAll(".hand .card"));
    expect(twelve).not.toBeNull();
    twelve?.focus();
    expect(document.activeElement).toBe(twelve);

    p.show(fifth(2, ["12", "7"])); // the 3 was played: a new version, new texts
    expect(p.root.querySelector(".table")).toBe(table);
    expect(p.root.querySelector('[data-action="p.12"]')).toBe(twelve);
    expect(document.activeElement).toBe(twelve);
    expect(p.root.querySelector('[data-action="p.3"]')).toBeNull();
    const after = Array.from(p.root.querySelectorAll(".hand .card"));
    expect(after).toEqual(hand.slice(1)); // the same nodes, the played one gone
    expect(p.root.querySelector(".table")?.getAttribute("data-version")).toBe("2");
    expect(p.root.querySelector(".last li")?.textContent).toBe("move 2");
  });

  it("hands a kept button the new drawing's press: it acts on the table as it is now", () => {
    const p = page();
    p.show(fifth(1, ["3", "12"]));
    const button = p.root.querySelector<HTMLButtonElement>('[data-action="p.12"]');
    p.show(fifth(2, ["12"]));
    expect(p.root.querySelector('[data-action="p.12"]')).toBe(button);
    button?.click();
    expect(p.acted.map((m) => m.action)).toEqual(["p.12"]); // once, not once per drawing
  });

  it("keeps a lifted card lifted, on the same node, through a new frame", () => {
    const p = page();
    p.show(gnome(1));
    const cell = p.root.querySelector<HTMLButtonElement>('.mine [data-cell="0"]');
    cell?.click(); // tap to lift
    expect(cell?.getAttribute("aria-pressed")).toBe("true");
    expect(cell?.querySelector(".card")?.classList.contains("chosen")).toBe(true);
    cell?.focus();

    p.show(gnome(2)); // another player's pick comes while it is lifted
    const again = p.root.querySelector<HTMLButtonElement>('.mine [data-cell="0"]');
    expect(again).toBe(cell);
    expect(again?.getAttribute("aria-pressed")).toBe("true");
    expect(document.activeElement).toBe(cell);

    p.root.querySelector<HTMLButtonElement>('.mine [data-cell="2"]')?.click(); // tap again to play
    expect(p.acted.map((m) => m.action)).toEqual(["op.0.2"]);
  });

  it("does not offer a step's moves again while the move sent for it is on its way", () => {
    const p = page();
    p.show(fifth(1, ["3", "12"], 5));
    p.root.querySelector<HTMLButtonElement>('[data-action="p.3"]')?.click();
    expect(p.acted).toHaveLength(1);
    expect(p.root.querySelectorAll("[data-action]")).toHaveLength(0); // no second press
    p.show(fifth(2, ["3", "12"], 5)); // another player's move: the same step of the viewer's
    expect(p.root.querySelectorAll("[data-action]")).toHaveLength(0);
    p.show(fifth(3, ["12"], 6)); // the answer: a new step, its moves offered
    expect(p.root.querySelectorAll("[data-action]")).toHaveLength(1);
    p.root.querySelector<HTMLButtonElement>('[data-action="p.12"]')?.click();
    expect(p.root.querySelectorAll("[data-action]")).toHaveLength(0);
    p.memory.sent = null; // refused: main.ts forgets the move sent, and the step's moves come back
    p.show(fifth(4, ["12"], 6));
    expect(p.root.querySelectorAll("[data-action]")).toHaveLength(1);
  });

  it("keeps a panel the viewer opened open", () => {
    const p = page();
    p.show(fifth(1, ["3"]));
    const panel = p.root.querySelector("details.panel");
    panel?.setAttribute("open", "");
    p.show(fifth(2, ["3"]));
    expect(p.root.querySelector("details.panel")).toBe(panel);
    expect(panel?.hasAttribute("open")).toBe(true);
  });

  it("matches keyed children by key and the others in order, and moves a node only when reordered", () => {
    const parent = h("div", {}, h("b", { "data-key": "a" }, "A"), h("b", { "data-key": "b" }, "B"), h("i", {}, "x"));
    const [a, b, i] = Array.from(parent.childNodes);
    patchChildren(parent, [h("b", { "data-key": "b" }, "B2"), h("b", { "data-key": "a" }, "A"), h("i", {}, "y"), h("u", {}, "new")]);
    expect(Array.from(parent.childNodes).slice(0, 3)).toEqual([b, a, i]);
    expect(parent.textContent).toBe("B2Aynew");
    expect(keyOf(h("span", { "data-place": "hand", "data-card": "QS" }))).toBe("SPAN|data-place=hand|QS");
    expect(keyOf(document.createTextNode("x"))).toBeNull();
  });

  it("tells a frame that changes nothing from one that does", () => {
    const a = fifth(1, ["3"]);
    expect(sameTable(a, fifth(1, ["3"]))).toBe(true);
    expect(sameTable(a, fifth(2, ["3"]))).toBe(false);
    expect(sameTable(a, { ...a, last: ["other"] })).toBe(false);
  });
});

describe("a press in progress", () => {
  it("holds a redraw back until it ends, then draws after its click", async () => {
    const { PressHold, HOLD_MS } = await import("../src/press");
    const target = new EventTarget();
    const ends = new EventTarget();
    let now = 0;
    const later: (() => void)[] = [];
    const redraw = vi.fn();
    const hold = new PressHold(target, redraw, () => now, ends, (run) => later.push(run));
    expect(hold.holds()).toBe(false); // no press: drawn at once
    target.dispatchEvent(new Event("pointerdown"));
    expect(hold.holds()).toBe(true);
    ends.dispatchEvent(new Event("pointerup"));
    expect(redraw).not.toHaveBeenCalled(); // not before the click
    later.forEach((run) => run());
    expect(redraw).toHaveBeenCalledTimes(1);
    target.dispatchEvent(new Event("pointerdown"));
    now = HOLD_MS + 1; // a finger left resting: the table is drawn all the same
    expect(hold.holds()).toBe(false);
  });
});
