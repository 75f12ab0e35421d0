import { describe, expect, it } from "vitest";
import { parseServerMessage } from "../src/protocol";

const table = {
  type: "table", game: "hearts", game_id: 4, version: 9, seat: 1, step: 3,
  view: { hand: ["QS"] }, moves: [{ action: "p.QS", label: "Play Q♠" }, "junk"],
  seats: [{ name: "Ana", computer: false, level: null, you: false, deadline: 1764760030 }, { name: "Bo", you: true, deadline: "soon" }],
  to_act: [1], deadline: 1764760000.5, last: ["Ana played 2♣"], panels: [{ title: "Hand", fields: [["a", "b"]] }],
  scores: null, status: "active", result: null,
};

describe("parseServerMessage", () => {
  it("reads a table", () => {
    const message = parseServerMessage(JSON.stringify(table));
    expect(message?.type).toBe("table");
    if (message?.type !== "table") return;
    expect(message.moves).toEqual([{ action: "p.QS", label: "Play Q♠" }]);
    expect(message.seats[1]).toEqual({ name: "Bo", avatar: null, computer: false, level: null, you: true, deadline: null });
    expect(message.seats[0]?.deadline).toBe(1764760030); // a seat's own timer
    expect(message.step).toBe(3);
    expect(message.panels[0]).toEqual({ title: "Hand", description: "", fields: [["a", "b"]], footer: "" });
  });

  it("refuses what is not a message it knows", () => {
    expect(parseServerMessage("not json")).toBeNull();
    expect(parseServerMessage("[1]")).toBeNull();
    expect(parseServerMessage(JSON.stringify({ ...table, game: 5 }))).toBeNull(); // a game is named by a string
    expect(parseServerMessage(JSON.stringify({ type: "other" }))).toBeNull();
  });

  it("reads a lobby with player objects or names, and an empty channel", () => {
    const lobby = { type: "lobby", lobby: { game: "ten", game_id: 2, players: [{ name: "Ana", computer: false }, "Bo"], min: 1, max: 5, joined: true, can_start: true, computers: false }, last_result: null };
    const message = parseServerMessage(JSON.stringify(lobby));
    expect(message).toMatchObject({ type: "lobby", lobby: { can_start: true, computers: false } });
    if (message?.type !== "lobby") throw new Error("not a lobby frame");
    expect(message.lobby?.players.map((p) => [p.seat, p.name, p.computer])).toEqual([[0, "Ana", false], [1, "Bo", false]]);
    expect(parseServerMessage(JSON.stringify({ type: "lobby", lobby: null }))).toEqual({ type: "lobby", lobby: null, last_result: null, games: [], can_post: null });
  });

  it("reads a welcome and a refusal", () => {
    expect(parseServerMessage(JSON.stringify({ type: "welcome", user: { id: 7, name: "Ana" }, channel_id: "5", language: "ro", expires_in: 900 })))
      .toEqual({ type: "welcome", user: { id: "7", name: "Ana" }, channel_id: "5", language: "ro", expires_in: 900 });
    expect(parseServerMessage(JSON.stringify({ type: "welcome", user: { id: 7, name: "Ana" } }))).toMatchObject({ expires_in: null });
    expect(parseServerMessage(JSON.stringify({ type: "refused", reason: "No." }))).toEqual({ type: "refused", reason: "No." });
  });

  it("reads a renewal only with a count of seconds", () => {
    expect(parseServerMessage(JSON.stringify({ type: "renewed", expires_in: 900 }))).toEqual({ type: "renewed", expires_in: 900 });
    for (const bad of ["900", -1, null, undefined, true]) {
      expect(parseServerMessage(JSON.stringify({ type: "renewed", expires_in: bad }))).toBeNull();
    }
    expect(parseServerMessage('{"type": "renewed", "expires_in": 1e999}')).toBeNull(); // Infinity
  });
});
