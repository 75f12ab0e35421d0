import { describe, expect, it } from "vitest";
import { chartSvg, endingOf, winnerLine } from "../src/ending";
import { Words } from "../src/i18n";
import { spans, stripped } from "../src/markdown";
import { finalTable, parseServerMessage } from "../src/protocol";

const en = new Words({}, "en");

// A lobby frame after a game of Hearts, as web/hub.py sends it (web/ending.py's standings).
const over = {
  type: "lobby",
  lobby: null,
  last_result: {
    game: "hearts", game_id: 4,
    panel: { title: "Hearts: game over", description: "**Ana** wins!", fields: [["Ana", "**12**"]], footer: "" },
    names: ["Ana", "Robo <Max>"],
    standings: [
      { seat: 0, name: "Ana", total: 12, place: 1, winner: true },
      { seat: 1, name: "Robo <Max>", total: 40, place: 2, winner: false },
    ],
    rounds: [[5, 21], [12, 40]],
    lowest_wins: true,
    table: {
      type: "table", game: "hearts", game_id: 4, version: 61, seat: 0, step: null,
      view: { game: "hearts", totals: [12, 40] }, moves: [], panels: [], seats: [{ name: "Ana" }, { name: "Robo <Max>" }],
      to_act: [], deadline: null, last: [], scores: null, status: "finished", result: null,
    },
  },
};

describe("the result screen", () => {
  it("reads the standings, the rounds and the final table of a last result", () => {
    const message = parseServerMessage(JSON.stringify(over));
    if (message?.type !== "lobby") throw new Error("not a lobby frame");
    const table = finalTable(message.last_result);
    expect(table).toMatchObject({ type: "table", game_id: 4, version: 61, status: "finished", moves: [] });
    const ending = endingOf(message.last_result, table);
    expect(ending).toMatchObject({ game: "hearts", game_id: 4, lowest_wins: true, rounds: [[5, 21], [12, 40]] });
    expect(ending?.standings.map((s) => [s.name, s.total, s.place, s.winner])).toEqual([
      ["Ana", 12, 1, true], ["Robo <Max>", 40, 2, false],
    ]);
    expect(ending?.table?.version).toBe(61);
  });

  it("is not drawn for a last result without standings (an older server's)", () => {
    expect(endingOf({ game: "hearts", game_id: 4, panel: {} })).toBeNull();
    expect(endingOf(null)).toBeNull();
    expect(endingOf({ standings: [{ name: "Ana" }] })).toBeNull();
  });

  it("names the winners in words, without Markdown", () => {
    const ending = endingOf(over.last_result);
    if (!ending) throw new Error("no ending");
    expect(winnerLine(ending, en)).toBe("Ana wins!");
    const shared = { ...ending, standings: ending.standings.map((s) => ({ ...s, winner: true })) };
    expect(winnerLine(shared, en)).toBe("Ana, Robo <Max> share the win!");
    const none = { ...ending, standings: ending.standings.map((s) => ({ ...s, winner: false })) };
    expect(winnerLine(none, en)).toBe("No winner this time.");
  });

  it("charts every player's total after each round, from 0", () => {
    const ending = endingOf(over.last_result);
    if (!ending) throw new Error("no ending");
    const svg = chartSvg(ending, en);
    expect(svg.startsWith("<svg")).toBe(true);
    const lines = [...svg.matchAll(/<path class="series" data-seat="(\d)" d="([^"]+)"/g)];
    expect(lines.map((m) => m[1])).toEqual(["0", "1"]);
    for (const [, , d] of lines) expect(d?.match(/[ML]/g)).toHaveLength(3); // 0, then two rounds
    expect(svg).toContain("Round 2");
    expect(svg).toContain('aria-label="Scores after each round"');
    expect(chartSvg({ ...ending, rounds: [] }, en)).toBe("");
  });
});

describe("the chat's Markdown on the page", () => {
  it("keeps bold as bold and drops every other mark", () => {
    expect(spans("**Ana** wins!")).toEqual([{ text: "Ana", bold: true }, { text: " wins!", bold: false }]);
    expect(stripped("**Ana** and **Bo** share the win!")).toBe("Ana and Bo share the win!");
    expect(stripped("*so* __close__ ~~not~~ `p.3` ||hidden||")).toBe("so close not p.3 hidden");
    expect(stripped("snake_case_name stays, 2 * 3 * 4 too")).toBe("snake_case_name stays, 2 * 3 * 4 too");
    expect(stripped("**Ana** scored **12**: **Ana wins!** 🎉")).toBe("Ana scored 12: Ana wins! 🎉");
  });
});
