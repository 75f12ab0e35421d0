import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Link, renewalDelay, socketUrl, type Hello, type LinkOptions } from "../src/connection";
import { FakeSocket } from "./fakesocket";

const welcome = (expiresIn: number) => ({ type: "welcome", user: { id: "1", name: "Ana" }, channel_id: "5", language: "en", expires_in: expiresIn });

function link(renew: () => Promise<string>, options: Partial<LinkOptions> = {}): Link {
  return new Link({
    url: "wss://1.discordsays.com/.proxy/api/live",
    hello: async () => ({ session: "s1", instance: "i-1 x", channel: null }),
    renew,
    onMessage: () => undefined,
    onState: () => undefined,
    ...options,
  });
}

async function opened(renew: () => Promise<string>): Promise<FakeSocket> {
  await link(renew).open();
  const socket = FakeSocket.made.at(-1)!;
  socket.opened();
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  vi.stubGlobal("WebSocket", FakeSocket);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("renewal timing", () => {
  it("renews two minutes before the end, or with a quarter left of a short session", () => {
    expect(renewalDelay(900)).toBe(780_000);
    expect(renewalDelay(60)).toBe(45_000);
    expect(renewalDelay(4)).toBe(3_000);
  });

  it("lets a session with almost nothing left end", () => {
    expect(renewalDelay(1.5)).toBeNull();
    expect(renewalDelay(Number.NaN)).toBeNull();
    expect(renewalDelay(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it("puts the instance, never the session, in the socket's address", () => {
    expect(socketUrl("ws://127.0.0.1:8787/api/live", "i-1 x&y")).toBe("ws://127.0.0.1:8787/api/live?instance=i-1%20x%26y");
  });
});

describe("the link", () => {
  it("says hello with the session and renews it over the open socket before it ends", async () => {
    const sessions = ["s2", "s3"];
    const renew = vi.fn(async () => sessions.shift() ?? "?");
    const socket = await opened(renew);
    expect(socket.url).toBe("wss://1.discordsays.com/.proxy/api/live?instance=i-1%20x");
    expect(socket.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1 x" }]);
    socket.receive(welcome(900));
    await vi.advanceTimersByTimeAsync(779_000);
    expect(renew).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket.sent.at(-1)).toEqual({ type: "renew", session: "s2" });
    socket.receive({ type: "renewed", expires_in: 900 });
    await vi.advanceTimersByTimeAsync(780_000);
    expect(socket.sent.at(-1)).toEqual({ type: "renew", session: "s3" });
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it("tries again while the session lasts when a sign-in fails", async () => {
    const renew = vi.fn().mockRejectedValueOnce(new Error("token: HTTP 502")).mockResolvedValue("s2");
    const socket = await opened(renew);
    socket.receive(welcome(900));
    await vi.advanceTimersByTimeAsync(780_000);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(socket.sent).toHaveLength(1); // the hello only
    await vi.advanceTimersByTimeAsync(90_000); // 120 s were left: tried again with 30 s left
    expect(renew).toHaveBeenCalledTimes(2);
    expect(socket.sent.at(-1)).toEqual({ type: "renew", session: "s2" });
  });

  it("stops renewing once the socket is closed, and reconnects after an expired session", async () => {
    const renew = vi.fn(async () => "s2");
    const states: string[] = [];
    await link(renew, { onState: (state, detail) => states.push(`${state}:${detail ?? ""}`) }).open();
    const socket = FakeSocket.made[0]!;
    socket.opened();
    socket.receive(welcome(900));
    socket.closed(4001);
    expect(states.at(-1)).toBe("closed:session");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.made).toHaveLength(2); // a new socket (with a new hello)
    await vi.advanceTimersByTimeAsync(900_000);
    expect(renew).not.toHaveBeenCalled(); // the new socket has not been welcomed
  });

  it("does not retry after a final refusal (4003: not in the instance)", async () => {
    const states: string[] = [];
    await link(async () => "s2", { onState: (state) => states.push(state) }).open();
    FakeSocket.made[0]!.opened();
    FakeSocket.made[0]!.closed(4003);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(states.at(-1)).toBe("refused");
    expect(FakeSocket.made).toHaveLength(1);
  });

  it("waits longer after each socket the backend's limits close before its welcome (1013)", async () => {
    await link(async () => "s2").open();
    const made = (): number => FakeSocket.made.length;
    FakeSocket.made[0]!.opened();
    FakeSocket.made[0]!.closed(1013);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(made()).toBe(2);
    FakeSocket.made[1]!.opened(); // opened, then closed again before a welcome
    FakeSocket.made[1]!.closed(1013);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(made()).toBe(2); // the backoff grew: not yet
    await vi.advanceTimersByTimeAsync(1_000);
    expect(made()).toBe(3);
    FakeSocket.made[2]!.opened();
    FakeSocket.made[2]!.receive(welcome(900)); // welcomed: the next drop starts again at 1 s
    FakeSocket.made[2]!.closed(1006);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(made()).toBe(4);
  });
});

/** A sign-in the test answers (or refuses) when it likes. */
function signIn(): { hello: () => Promise<Hello>; answer: (instance?: string) => void; refuse: () => void; calls: () => number } {
  let calls = 0;
  let answer: (instance?: string) => void = () => undefined;
  let refuse: () => void = () => undefined;
  const hello = (): Promise<Hello> => {
    calls += 1;
    return new Promise<Hello>((resolve, reject) => {
      answer = (instance = "i-1 x") => resolve({ session: "s1", instance, channel: "5" });
      refuse = () => reject(new Error("token: HTTP 401"));
    });
  };
  return { hello, answer: (instance) => answer(instance), refuse: () => refuse(), calls: () => calls };
}

describe("the link's start while signing in", () => {
  it("opens the socket at once and says hello when the sign-in answers", async () => {
    const states: string[] = [];
    const sign = signIn();
    const opening = link(async () => "s2", { instance: "i-1 x", hello: sign.hello, onState: (state) => states.push(state) }).open();
    expect(FakeSocket.made).toHaveLength(1); // before the sign-in's answer
    const socket = FakeSocket.made[0]!;
    expect(socket.url).toBe("wss://1.discordsays.com/.proxy/api/live?instance=i-1%20x");
    socket.opened();
    expect(socket.sent).toEqual([]);
    expect(states).toEqual(["connecting"]);
    sign.answer();
    await opening;
    expect(socket.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1 x", channel_id: "5" }]);
    expect(states).toEqual(["connecting", "open"]);
    expect(FakeSocket.made).toHaveLength(1);
  });

  it("sends nothing on a socket open before its hello (the sign-in still under way)", async () => {
    const sign = signIn();
    const made = link(async () => "s2", { instance: "i-1 x", hello: sign.hello });
    const opening = made.open();
    const socket = FakeSocket.made[0]!;
    socket.opened();
    const move = { type: "move", game_id: 1, step: 3, action: "p.AH" } as const;
    expect(made.send(move)).toBe("closed"); // a first message that is not a hello ends the socket
    expect(socket.sent).toEqual([]);
    sign.answer();
    await opening;
    expect(made.send(move)).toBe("sent");
    expect(socket.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1 x", channel_id: "5" }, move]);
  });

  it("says hello once the socket opens when the sign-in answered first", async () => {
    const sign = signIn();
    const opening = link(async () => "s2", { instance: "i-1 x", hello: sign.hello }).open();
    sign.answer();
    await opening;
    const socket = FakeSocket.made[0]!;
    expect(socket.sent).toEqual([]);
    socket.opened();
    expect(socket.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1 x", channel_id: "5" }]);
  });

  it("opens the socket after the sign-in when the instance is not known before", async () => {
    const sign = signIn();
    const opening = link(async () => "s2", { hello: sign.hello }).open();
    expect(FakeSocket.made).toHaveLength(0);
    sign.answer();
    await opening;
    expect(FakeSocket.made).toHaveLength(1);
  });

  it("closes the early socket, without reconnecting, when the sign-in fails", async () => {
    const states: string[] = [];
    const sign = signIn();
    const opening = link(async () => "s2", { instance: "i-1 x", hello: sign.hello, onState: (state) => states.push(state) }).open();
    FakeSocket.made[0]!.opened();
    sign.refuse();
    await expect(opening).rejects.toThrow("token: HTTP 401");
    expect(FakeSocket.made[0]!.closedByPage).toBe(true);
    FakeSocket.made[0]!.closed(1005);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.made).toHaveLength(1);
    expect(states).toEqual(["connecting"]);
  });

  it("replaces, once signed in, a socket the backend closed while the sign-in went on", async () => {
    const states: string[] = [];
    const sign = signIn();
    const opening = link(async () => "s2", { instance: "i-1 x", hello: sign.hello, onState: (state) => states.push(state) }).open();
    FakeSocket.made[0]!.opened();
    FakeSocket.made[0]!.closed(4001); // no hello within 10 s
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.made).toHaveLength(1); // no second sign-in while the first goes on
    expect(sign.calls()).toBe(1);
    expect(states).toEqual(["connecting"]);
    sign.answer();
    await opening;
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1]!.opened();
    expect(FakeSocket.made[1]!.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1 x", channel_id: "5" }]);
    expect(states).toEqual(["connecting", "open"]);
    FakeSocket.made[1]!.closed(1006); // and a later drop reconnects as ever
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sign.calls()).toBe(2);
    expect(FakeSocket.made).toHaveLength(3);
  });

  it("opens another socket when the sign-in names another instance than the address", async () => {
    const sign = signIn();
    const opening = link(async () => "s2", { instance: "i-1 x", hello: sign.hello }).open();
    FakeSocket.made[0]!.opened();
    sign.answer("i-2");
    await opening;
    expect(FakeSocket.made[0]!.closedByPage).toBe(true);
    expect(FakeSocket.made[0]!.sent).toEqual([]);
    expect(FakeSocket.made[1]!.url).toBe("wss://1.discordsays.com/.proxy/api/live?instance=i-2");
    FakeSocket.made[0]!.closed(1005); // its close is not a drop
    FakeSocket.made[1]!.opened();
    expect(FakeSocket.made[1]!.sent).toEqual([{ type: "hello", session: "s1", instance: "i-2", channel_id: "5" }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.made).toHaveLength(2);
  });
});

describe("the link's pace", () => {
  it("sends at most 15 messages in any 5 s, a few more once the window allows, and keeps the socket", async () => {
    const made = link(async () => "s2");
    await made.open();
    const socket = FakeSocket.made.at(-1)!;
    socket.opened();
    socket.receive(welcome(900));
    const sent = socket.sent.length;
    const move = (n: number) => ({ type: "move", game_id: 1, step: n, action: "p.AH" }) as const;
    const answers = Array.from({ length: 30 }, (_, n) => made.send(move(n)));
    expect(answers.slice(0, 20).every((a) => a === "sent")).toBe(true); // 15 at once, 5 waiting
    expect(answers.slice(20).every((a) => a === "busy")).toBe(true);
    expect(socket.sent.length - sent).toBe(15);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(socket.sent.length - sent).toBe(15);
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.sent.slice(sent).map((m) => (m as { step: number }).step)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    socket.closed(1006);
    expect(made.send(move(99))).toBe("closed");
  });

  it("drops what waits when its socket closes", async () => {
    const made = link(async () => "s2");
    await made.open();
    const socket = FakeSocket.made.at(-1)!;
    socket.opened();
    const sent = socket.sent.length;
    for (let n = 0; n < 17; n++) made.send({ type: "move", game_id: 1, step: n, action: "x" });
    socket.closed(1006);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(socket.sent.length - sent).toBe(15);
  });
});
