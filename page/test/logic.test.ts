import { describe, expect, it } from "vitest";
import { newEntries } from "../src/changes";
import { backoff, launchFrom, liveUrl } from "../src/launch";
import { bindMoves, openingCells, openingMove, targetOf } from "../src/moves";
import { clock, secondsLeft } from "../src/timer";

const m = (action: string) => ({ action, label: action.toUpperCase() });

describe("moves", () => {
  it("binds each game's card and pile moves to their targets", () => {
    expect(targetOf("grinch", "d.W3a")).toBe("hand:W3a");
    expect(targetOf("grinch", "t.p2")).toBe("pile:2");
    expect(targetOf("grinch", "t.deck")).toBe("deck");
    expect(targetOf("grinch", "r.run")).toBeNull();
    expect(targetOf("hearts", "p.10H")).toBe("hand:10H");
    expect(targetOf("gnome", "pl.4")).toBe("cell:4");
    expect(targetOf("gnome", "fl.8")).toBe("cell:8");
    expect(targetOf("gnome", "dr.B")).toBe("discard:B");
    expect(targetOf("gnome", "x")).toBeNull();
    expect(targetOf("ten", "draw")).toBe("deck");
    expect(targetOf("ten", "buy.R5.c1")).toBeNull();
  });

  it("keeps button-only moves and a second move of one target as buttons", () => {
    const bound = bindMoves("grinch", [m("d.W1a"), m("r.run"), m("t.deck")]);
    expect([...bound.targets.keys()]).toEqual(["hand:W1a", "deck"]);
    expect(bound.rest.map((x) => x.action)).toEqual(["r.run"]);
    const twice = bindMoves("gnome", [m("dr.A"), m("x.A")]);
    expect(twice.rest.map((x) => x.action)).toEqual(["x.A"]);
  });

  it("pairs Gnoming's opening cells", () => {
    const bound = bindMoves("gnome", [m("op.0.1"), m("op.0.4"), m("op.2.5")]);
    expect(bound.rest).toEqual([]);
    expect([...openingCells(bound.pairs, null)].sort()).toEqual([0, 1, 2, 4, 5]);
    expect([...openingCells(bound.pairs, 0)].sort()).toEqual([1, 4]);
    expect(openingMove(bound.pairs, 4, 0)?.action).toBe("op.0.4");
    expect(openingMove(bound.pairs, 1, 2)).toBeUndefined();
  });
});

describe("timer", () => {
  it("counts down to the deadline and never below zero", () => {
    expect(secondsLeft(null, 0)).toBeNull();
    expect(secondsLeft(100, 40_500)).toBe(60);
    expect(secondsLeft(100, 200_000)).toBe(0);
    expect([0, 9, 65, 3600, 3725].map(clock)).toEqual(["0:00", "0:09", "1:05", "1:00:00", "1:02:05"]);
  });
});

describe("last moves", () => {
  it("finds the lines a new table added to the rolling list", () => {
    expect(newEntries([], ["a"])).toEqual(["a"]);
    expect(newEntries(["a", "b", "c"], ["b", "c", "d", "e"])).toEqual(["d", "e"]);
    expect(newEntries(["a", "b"], ["a", "b"])).toEqual([]);
    expect(newEntries(["x"], ["a", "b"])).toEqual(["a", "b"]);
  });
});

describe("launch", () => {
  it("is the mock without Discord's frame parameters", () => {
    const local = launchFrom("?instance_id=local&channel_id=55&user_id=7");
    expect(local).toMatchObject({ mock: true, userId: "7", instanceId: "local", channelId: "55", apiBase: "/api" });
    expect(launchFrom("").userId).toBe("1");
    const inside = launchFrom("?frame_id=abc&instance_id=i-1&channel_id=9&user_id=7");
    expect(inside).toMatchObject({ mock: false, userId: null, apiBase: "/.proxy/api" });
  });

  it("opens the websocket on the page's host with the page's scheme", () => {
    expect(liveUrl({ protocol: "https:", host: "1.discordsays.com" }, "/.proxy/api")).toBe("wss://1.discordsays.com/.proxy/api/live");
    expect(liveUrl({ protocol: "http:", host: "127.0.0.1:8787" }, "/api")).toBe("ws://127.0.0.1:8787/api/live");
  });

  it("waits longer after each failed reconnection, up to 30 s", () => {
    expect([1, 2, 3, 10].map(backoff)).toEqual([1000, 2000, 4000, 30000]);
  });
});
