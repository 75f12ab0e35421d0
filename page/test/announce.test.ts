import { describe, expect, it } from "vitest";
import { announcement } from "../src/announce";
import { Words } from "../src/i18n";
import type { TableMessage } from "../src/protocol";

const en = new Words({}, "en");

function table(version: number, last: string[], toAct: number[], gameId = 1): TableMessage {
  return {
    type: "table", game: "hearts", game_id: gameId, version, seat: 0, step: version, view: {},
    moves: [], panels: [], seats: [], to_act: toAct, deadline: null, last, scores: null,
    status: "active", result: null,
  };
}

describe("what a screen reader is told", () => {
  it("says the moves made since the last table and when the turn becomes the viewer's", () => {
    const first = table(3, ["Ana led 2♣"], [1]);
    expect(announcement(null, first, en)).toBe("Ana led 2♣");
    const next = table(4, ["Ana led 2♣", "Bo played 5♣; Bo took the trick"], [0]);
    expect(announcement(first, next, en)).toBe("Bo played 5♣; Bo took the trick Your turn.");
  });

  it("says nothing for the same table again, and no second 'your turn' while it lasts", () => {
    const mine = table(4, ["Bo played 5♣"], [0]);
    expect(announcement(mine, { ...mine }, en)).toBe("");
    const stillMine = table(5, ["Bo played 5♣", "Ana drew"], [0]);
    expect(announcement(mine, stillMine, en)).toBe("Ana drew");
  });

  it("starts afresh for another game", () => {
    expect(announcement(table(9, ["old"], []), table(1, ["a", "b"], [0], 2), en)).toBe("b Your turn.");
  });
});
