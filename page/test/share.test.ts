// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { dialogsOf } from "../src/discord";
import { drawEnding, endingOf, type Ending } from "../src/ending";
import { Words } from "../src/i18n";
import { launchFrom } from "../src/launch";
import { drawLobby, offersInvite } from "../src/lobby";
import { parseServerMessage, type Lobby, type LobbyMessage } from "../src/protocol";

const en = new Words({}, "en");

function ending(): Ending {
  const found = endingOf({
    game: "hearts", game_id: 4, names: ["Ana", "Bo"], rounds: [[5, 21]], lowest_wins: true,
    standings: [{ seat: 0, name: "Ana", total: 5, place: 1, winner: true }, { seat: 1, name: "Bo", total: 21, place: 2, winner: false }],
  });
  if (!found) throw new Error("no ending");
  return found;
}

function lobbyFrame(lobby: Partial<Lobby>): LobbyMessage {
  const whole: Lobby = {
    game: "gnome", game_id: 5, host: true, host_name: "Ana", min: 3, max: 7, joined: true, can_start: false, computers: true,
    players: [{ seat: 0, name: "Ana", computer: false, level: null, accepted: true }],
    ...lobby,
  };
  return { type: "lobby", lobby: whole, last_result: null, games: [], can_post: null };
}

function players(n: number): Lobby["players"] {
  return Array.from({ length: n }, (_, seat) => ({ seat, name: `P${seat}`, computer: false, level: null, accepted: true }));
}

describe("Share on the result screen", () => {
  it("is offered inside Discord and asks for the game's picture", () => {
    const send = vi.fn();
    const screen = drawEnding(ending(), en, () => undefined, { send, waiting: false });
    const button = screen.querySelector<HTMLButtonElement>('[data-lobby="share"]');
    expect(button?.textContent).toBe("Share");
    button?.click();
    expect(send).toHaveBeenCalledWith(4);
  });

  it("is not offered outside Discord", () => {
    expect(drawEnding(ending(), en, () => undefined).querySelector('[data-lobby="share"]')).toBeNull();
    const none = drawEnding(ending(), en, () => undefined, { send: null, waiting: false });
    expect(none.querySelector('[data-lobby="share"]')).toBeNull();
    expect(none.querySelector('[data-lobby="play_again"]')).not.toBeNull();
  });

  it("sends once while a press waits for its answer", () => {
    const send = vi.fn();
    const screen = drawEnding(ending(), en, () => undefined, { send, waiting: true });
    const button = screen.querySelector<HTMLButtonElement>('[data-lobby="share"]');
    expect(button?.getAttribute("aria-disabled")).toBe("true");
    button?.click();
    expect(send).not.toHaveBeenCalled();
  });

  it("reads the server's answer: a CDN URL the dialog takes, else nothing", () => {
    const url = "https://cdn.discordapp.com/ephemeral-attachments/1/2/game-4.png?ex=1&";
    expect(parseServerMessage(JSON.stringify({ type: "shared", game_id: 4, url }))).toEqual({ type: "shared", game_id: 4, url });
    expect(parseServerMessage(JSON.stringify({ type: "shared", game_id: 4, url: "javascript:alert(1)" }))).toBeNull();
    expect(parseServerMessage(JSON.stringify({ type: "shared", game_id: 4, url: `https://${"a".repeat(1024)}` }))).toBeNull();
    expect(parseServerMessage(JSON.stringify({ type: "shared", game_id: "4", url }))).toBeNull();
  });
});

describe("Discord's dialogs", () => {
  it("are the SDK's commands inside Discord", async () => {
    const openShareMomentDialog = vi.fn(async () => null);
    const openInviteDialog = vi.fn(async () => null);
    const sdk = { commands: { openShareMomentDialog, openInviteDialog } } as unknown as Parameters<typeof dialogsOf>[0];
    const dialogs = dialogsOf(sdk, false);
    await dialogs?.shareMoment("https://cdn.discordapp.com/x.png");
    await dialogs?.invite();
    expect(openShareMomentDialog).toHaveBeenCalledWith({ mediaUrl: "https://cdn.discordapp.com/x.png" });
    expect(openInviteDialog).toHaveBeenCalledTimes(1);
  });

  it("are none outside Discord", () => {
    const sdk = { commands: {} } as unknown as Parameters<typeof dialogsOf>[0];
    expect(dialogsOf(sdk, true)).toBeNull();
    expect(dialogsOf(null, false)).toBeNull();
  });

  it("are recorded by the mock only when the local page asks for it", () => {
    expect(launchFrom("?user_id=5").recordDialogs).toBe(false);
    expect(launchFrom("?user_id=5&dialogs=record").recordDialogs).toBe(true);
    expect(launchFrom("?frame_id=f&instance_id=i&dialogs=record").recordDialogs).toBe(false);
  });
});

describe("Invite in a lobby", () => {
  it("is offered where players are missing, or to the host while there is room", () => {
    const host = lobbyFrame({}).lobby!;
    expect(offersInvite(host)).toBe(true); // 1 of at least 3
    expect(offersInvite({ ...host, host: false })).toBe(true); // still missing players
    expect(offersInvite({ ...host, players: players(3) })).toBe(true); // the host, room left
    expect(offersInvite({ ...host, players: players(3), host: false })).toBe(false); // enough, not the host
    expect(offersInvite({ ...host, players: players(7) })).toBe(false); // full
  });

  it("opens the invite dialog inside Discord, and is not shown outside it", () => {
    const invite = vi.fn();
    const inside = drawLobby(lobbyFrame({}), en, () => undefined, invite);
    const button = inside.querySelector<HTMLButtonElement>('[data-lobby="invite"]');
    expect(button?.textContent).toBe("Invite");
    button?.click();
    expect(invite).toHaveBeenCalledTimes(1);
    expect(drawLobby(lobbyFrame({}), en, () => undefined).querySelector('[data-lobby="invite"]')).toBeNull();
    const enough = drawLobby(lobbyFrame({ host: false, players: players(3) }), en, () => undefined, invite);
    expect(enough.querySelector('[data-lobby="invite"]')).toBeNull();
  });
});
