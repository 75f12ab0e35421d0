import { describe, expect, it } from "vitest";
import { dropInScreen } from "../src/dropin";
import catalogsData from "../src/generated/catalogs.json";
import { Words, type Catalogs } from "../src/i18n";
import { gameLine, lobbyScreen } from "../src/lobby";
import { parseServerMessage, type LobbyMessage, type TableMessage } from "../src/protocol";

const catalogs = catalogsData as Catalogs;
const en = new Words(catalogs, "en");
const games = [
  { game: "grinch", min: 2, max: 6 }, { game: "gnome", min: 3, max: 7 },
  { game: "hearts", min: 2, max: 2 }, { game: "ten", min: 1, max: 5 },
];

// A lobby frame as web/frames.py sends it: Ana opened Gnoming, Robo Max plays easy.
function lobbyFrame(viewer: "host" | "seated" | "stranger", players = 2): LobbyMessage {
  const seats = [
    { seat: 0, name: "Ana", computer: false, level: null, accepted: true },
    { seat: 1, name: "Robo Max", computer: true, level: "easy", accepted: true },
    { seat: 2, name: "Bo", computer: false, level: null, accepted: true },
  ].slice(0, players);
  const message = parseServerMessage(JSON.stringify({
    type: "lobby", games, last_result: null,
    lobby: {
      game: "gnome", game_id: 7, host: viewer === "host", host_name: "Ana", players: seats, min: 3, max: 7,
      joined: viewer !== "stranger", can_start: viewer === "host" && players >= 3, computers: true,
    },
  }));
  if (message?.type !== "lobby") throw new Error("not a lobby frame");
  return message;
}

const keys = (screen: { controls: { key: string }[] }) => screen.controls.map((c) => c.key);

describe("the lobby", () => {
  it("says each game in one line with its count of players", () => {
    expect(gameLine(games[2]!, en)).toBe("2-Player Hearts, for two: take no hearts and keep away from the queen of spades; the lower total wins.");
    expect(gameLine(games[0]!, en)).toMatch(/^Grinch Grow Your Heart, for 2 to 6 players: /);
    expect(gameLine({ game: "fifth", min: 2, max: 2 }, en)).toBe("fifth, for 2 players.");
    const free = lobbyScreen({ type: "lobby", lobby: null, last_result: null, games }, en);
    expect(free.openers.map((o) => o.controls.map((c) => c.key))).toEqual(
      games.map((g) => [`open:${g.game}`, `play_computers:${g.game}`]));
    expect(free.openers[3]!.line).toMatch(/^Ten, for 1 to 5 players: /);
  });

  it("says them in the viewer's language", () => {
    const ro = new Words(catalogs, "ro");
    expect(gameLine(games[2]!, ro)).toBe("Inimi cu 2 jucători, pentru doi: nu lua inimi și ferește-te de regina de pică; câștigă totalul mai mic.");
    const lt = new Words(catalogs, "lt");
    expect(lobbyScreen(lobbyFrame("seated", 3), lt).waiting).toBe("Laukiama, kol Ana pradės.");
    const et = new Words(catalogs, "et");
    expect(lobbyScreen(lobbyFrame("host"), et).waiting).toBe("Alustamiseks on vaja veel üht mängijat.");
  });

  it("shows the host what is missing, and their buttons", () => {
    const screen = lobbyScreen(lobbyFrame("host"), en);
    expect(screen.waiting).toBe("One more player is needed to start.");
    expect(screen.seats.map((s) => s.text)).toEqual(["Ana (opened the game)", "Robo Max 🤖 easy"]);
    expect(keys(screen)).toEqual(["add_computer:easy", "add_computer:normal", "add_computer:hard", "play_computers", "cancel"]);
    const robo = screen.seats[1]!.controls;
    expect(robo.map((c) => [c.key, c.pressed])).toEqual([
      ["computer_level:1:easy", true], ["computer_level:1:normal", false], ["computer_level:1:hard", false], ["remove_computer:1", undefined],
    ]);
    expect(robo[3]!.extra).toEqual({ seat: 1, name: "Robo Max" });
    expect(robo[2]!.extra).toEqual({ seat: 1, name: "Robo Max", level: "hard" });
    const full = lobbyScreen(lobbyFrame("host", 3), en);
    expect(keys(full)).toEqual(["add_computer:easy", "add_computer:normal", "add_computer:hard", "start", "cancel"]);
    expect(full.waiting).toBe("Start when everyone is here.");
  });

  it("tells the others who starts, and lets them join or leave", () => {
    const seated = lobbyScreen(lobbyFrame("seated", 3), en);
    expect(seated.waiting).toBe("Waiting for Ana to start.");
    expect(keys(seated)).toEqual(["add_computer:easy", "add_computer:normal", "add_computer:hard", "leave"]);
    const stranger = lobbyScreen(lobbyFrame("stranger"), en);
    expect(keys(stranger)).toEqual(["join"]);
    expect(stranger.seats[1]!.controls).toEqual([]); // only the seated change computers
    expect(stranger.count).toBe("2 of 7 players (at least 3).");
  });
});

const table = (seat: number | null, status: "active" | "finished" = "active"): TableMessage => ({
  type: "table", game: "hearts", game_id: 4, version: 3, seat, step: seat === null ? null : 1, view: { game: "hearts" } as TableMessage["view"],
  moves: [], panels: [], seats: [], to_act: [0], deadline: null, last: [], scores: null, status, result: null,
});

describe("beside a running game", () => {
  it("offers a spectator the next game, and says when they have it", () => {
    const offer = dropInScreen(table(null), { confirming: null, waiting: false }, en);
    expect(offer?.text).toBe("You are watching this game.");
    expect(offer?.controls.map((c) => [c.key, c.op, c.extra])).toEqual([["next_game", "next_game", { game_id: 4 }]]);
    const waiting = dropInScreen(table(null), { confirming: null, waiting: true }, en);
    expect(waiting?.text).toBe("You are watching. You will have a seat in the next game.");
    expect(waiting?.controls.map((c) => [c.key, c.op, c.label])).toEqual([["skip_next_game", "skip_next_game", "Give up the seat"]]);
  });

  it("lets a player leave only after a confirm step", () => {
    const asked = dropInScreen(table(0), { confirming: null, waiting: false }, en);
    expect(asked?.controls.map((c) => c.key)).toEqual(["ask_leave"]);
    const confirm = dropInScreen(table(0), { confirming: 4, waiting: false }, en);
    expect(confirm?.text).toMatch(/^Leave this game\? A computer player takes your seat/);
    expect(confirm?.controls.map((c) => [c.key, c.extra])).toEqual([["leave_game", { game_id: 4 }], ["stay", undefined]]);
    expect(dropInScreen(table(0), { confirming: 3, waiting: false }, en)?.controls.map((c) => c.key)).toEqual(["ask_leave"]);
    expect(dropInScreen(table(0, "finished"), { confirming: 4, waiting: false }, en)).toBeNull();
  });
});
