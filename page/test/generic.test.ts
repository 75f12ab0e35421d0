import { describe, expect, it } from "vitest";
import { GAME_NAMES } from "../src/generated/views";
import { bindMoves, targetOf } from "../src/moves";
import { parseServerMessage } from "../src/protocol";
import { viewFor } from "../src/table";
import { describe as describeValue, entries, generic, handOf, seatNumbers } from "../src/views/generic";
import { grinch } from "../src/views/grinch";

// A frame of a game the page was built without (tests/fifth's High card), as the server sends it.
const fifth = {
  type: "table", game: "fifth", game_id: 9, version: 3, seat: 0, step: 2,
  view: {
    game: "fifth", players: 2, seat: 0, phase: "play", to_act: [0, 1], round: 1,
    hand: ["3", "12"], hand_sizes: [2, 3], played: [false, true], my_card: null,
    rounds: [{ cards: ["5", "9"], winner: 1, points: 14 }], totals: [0, 14], outcome: null,
  },
  moves: [{ action: "p.3", label: "Play 3" }, { action: "p.12", label: "Play 12" }],
  seats: [{ name: "Ana", you: true }, { name: "Bo" }], to_act: [0, 1], deadline: null, last: [],
  panels: [], scores: null, status: "active", result: null,
};

describe("a game without a view of its own", () => {
  it("keeps its frames: a table and a lobby of any game are read, not dropped", () => {
    const table = parseServerMessage(JSON.stringify(fifth));
    expect(table).toMatchObject({ type: "table", game: "fifth", game_id: 9, view: { hand: ["3", "12"] } });
    const lobby = parseServerMessage(JSON.stringify({ type: "lobby", lobby: { game: "fifth", game_id: 9, players: ["Ana"], min: 2, max: 3 } }));
    expect(lobby).toMatchObject({ type: "lobby", lobby: { game: "fifth", game_id: 9 } });
    expect(parseServerMessage(JSON.stringify({ ...fifth, game: "" }))).toBeNull();
  });

  it("is drawn by the generic view, the registered games by their own", () => {
    expect(viewFor("fifth")).toBe(generic);
    expect(viewFor("grinch")).toBe(grinch);
    expect(viewFor("toString")).toBe(generic); // never a property every object has
    for (const game of ["grinch", "gnome", "hearts", "ten"]) expect(viewFor(game)).not.toBe(generic);
    expect(GAME_NAMES).toContain("ten"); // the lobby's list is the registry's
  });

  it("offers every move as a button", () => {
    expect(targetOf("fifth", "p.3")).toBeNull();
    expect(bindMoves("fifth", fifth.moves).rest).toEqual(fifth.moves);
  });

  it("lists what the view holds, key by key, but what the table shows already", () => {
    const listed = entries(fifth.view);
    expect(listed.map((e) => e.key)).toEqual(["hand", "hand_sizes", "played", "my_card", "totals"]);
    expect(listed.find((e) => e.key === "played")?.text).toBe("[false, true]");
    expect(listed.find((e) => e.key === "my_card")?.text).toBe("–");
    expect(describeValue(fifth.view.rounds)).toBe("[{cards: [5, 9]; winner: 1; points: 14}]");
    expect(handOf(fifth.view)).toEqual(["3", "12"]);
    expect(handOf({ hand: [1, 2] })).toEqual([]);
  });

  it("gives each seat the numbers the view keeps per seat", () => {
    expect(seatNumbers(fifth.view, 1, 2)).toEqual(["hand sizes 3", "totals 14"]);
    expect(seatNumbers(fifth.view, 0, 3)).toEqual([]);
  });
});
