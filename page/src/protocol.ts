// The messages of the live table's websocket (docs/activity.md), and their checks.

import { GAME_NAMES, type View } from "./generated/views";

export type { View };

/** A game's name as the server sends it: one of the registered games (GAME_NAMES when the page
 * was built) or a game added since, which the table draws with its generic view. */
export type Game = string;
/** The games a lobby can open, in the registry's order. */
export const GAMES: readonly Game[] = GAME_NAMES;

export interface User {
  id: string;
  name: string;
}

export interface Move {
  action: string;
  label: string;
}

export interface SeatInfo {
  /** The player's name in the server (nickname, else display name, else username). */
  name: string;
  /** The player's avatar: a path on Discord's CDN (null: a computer, or not known). */
  avatar: string | null;
  computer: boolean;
  level: string | null;
  you: boolean;
  /** When the seat's turn ends (Unix seconds), while it has a timer running. */
  deadline: number | null;
}

/** One of the DM's embeds, as the bot draws it for this viewer (already translated). */
export interface Panel {
  title: string;
  description: string;
  fields: [string, string][];
  footer: string;
}

export interface TableMessage {
  type: "table";
  game: Game;
  game_id: number;
  version: number;
  seat: number | null;
  step: number | null;
  view: View;
  moves: Move[];
  panels: Panel[];
  seats: SeatInfo[];
  to_act: number[];
  deadline: number | null;
  last: string[];
  scores: Record<string, unknown> | null;
  status: "active" | "finished";
  result: Record<string, unknown> | null;
}

/** One seat of a lobby, in seat order (``seat`` names a computer to remove or change). */
export interface LobbyPlayer {
  seat: number;
  name: string;
  computer: boolean;
  level: string | null;
  /** False for the challenged player who has not accepted yet. */
  accepted: boolean;
}

/** A game a lobby can open, and how many play it. */
export interface GameInfo {
  game: Game;
  min: number;
  max: number;
}

export interface Lobby {
  game: Game;
  game_id: number;
  /** The viewer opened it: they start it, or cancel it. */
  host: boolean;
  /** Who opened it (and starts it). */
  host_name: string;
  players: LobbyPlayer[];
  min: number;
  max: number;
  joined: boolean;
  can_start: boolean;
  /** The server allows computer players. */
  computers: boolean;
}

export interface LobbyMessage {
  type: "lobby";
  lobby: Lobby | null;
  last_result: Record<string, unknown> | null;
  /** Every game a lobby can open, with its count of players. */
  games: GameInfo[];
  /** With no lobby: whether the bot may post in the channel (null: not known before it tries). */
  can_post?: boolean | null;
}

export interface WelcomeMessage {
  type: "welcome";
  user: User;
  channel_id: string;
  language: string;
  /** Seconds until the socket's session ends (null from a backend that does not say). */
  expires_in: number | null;
}

/** The socket's session was renewed: it now ends in ``expires_in`` seconds. */
export interface RenewedMessage {
  type: "renewed";
  expires_in: number;
}

export interface RefusedMessage {
  type: "refused";
  reason: string;
}

/** Something done for the viewer alone (they left a game: who plays their seat now). */
export interface NoticeMessage {
  type: "notice";
  text: string;
}

/** The viewer waits for a seat in the channel's next game. */
export interface WaitingMessage {
  type: "waiting";
  next_game: boolean;
}

/** The answer to a ``share``: the finished game's picture on Discord's CDN, for the SDK's
 * share dialog. */
export interface SharedMessage {
  type: "shared";
  game_id: number;
  url: string;
}

/** The longest ``mediaUrl`` the SDK's share dialog takes. */
export const MEDIA_URL_MAX = 1024;

export type ServerMessage = WelcomeMessage | TableMessage | LobbyMessage | RefusedMessage | RenewedMessage | NoticeMessage | WaitingMessage | SharedMessage;

export type LobbyOp =
  | "open" | "join" | "leave" | "cancel" | "add_computer" | "remove_computer" | "computer_level" | "start"
  | "play_computers" | "play_again" | "leave_game" | "next_game" | "skip_next_game" | "check";

export type ClientMessage =
  // locale: the Discord client's; language: the viewer's pick on the page (overrides it)
  | { type: "hello"; session: string; instance: string; channel_id?: string; locale?: string; language?: string }
  | { type: "language"; language: string }
  | { type: "renew"; session: string }
  | { type: "move"; game_id: number; step: number; action: string }
  | { type: "share"; game_id: number }
  | { type: "lobby"; op: LobbyOp; game?: Game; level?: string; seat?: number; name?: string; game_id?: number };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Any game's name: a table of a game the page has no dedicated view for is still drawn. */
function isGame(value: unknown): value is Game {
  return typeof value === "string" && value.length > 0;
}

/** A count of seconds: a finite number, not below zero. */
function seconds(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

function player(value: unknown, index: number): LobbyPlayer {
  const seat = isObject(value) && typeof value["seat"] === "number" ? value["seat"] : index;
  if (!isObject(value)) return { seat, name: typeof value === "string" ? value : "?", computer: false, level: null, accepted: true };
  return {
    seat,
    name: typeof value["name"] === "string" ? value["name"] : "?",
    computer: value["computer"] === true,
    level: typeof value["level"] === "string" ? value["level"] : null,
    accepted: value["accepted"] !== false,
  };
}

function gameInfo(value: unknown): GameInfo | null {
  if (!isObject(value) || !isGame(value["game"])) return null;
  return { game: value["game"], min: Number(value["min"] ?? 1), max: Number(value["max"] ?? 1) };
}

/** The server's message in ``text``, or null when it is not one the page knows. */
/** The panel of a lobby frame's last result, if it has one. */
export function resultPanel(result: Record<string, unknown> | null): Panel | null {
  const found = result?.["panel"];
  return isObject(found) ? panel(found) : null;
}

/** The final table of a lobby frame's last result (the last trick or round as the viewer saw
 * it), if the server sent it. */
export function finalTable(result: Record<string, unknown> | null): TableMessage | null {
  const found = result?.["table"];
  return isObject(found) ? parseTable(found) : null;
}

export function parseServerMessage(text: string): ServerMessage | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(data)) return null;
  switch (data["type"]) {
    case "welcome":
      if (!isObject(data["user"])) return null;
      return {
        type: "welcome",
        user: { id: String(data["user"]["id"]), name: String(data["user"]["name"] ?? "") },
        channel_id: String(data["channel_id"] ?? ""),
        language: typeof data["language"] === "string" ? data["language"] : "en",
        expires_in: seconds(data["expires_in"]),
      };
    case "renewed": {
      const left = seconds(data["expires_in"]);
      return left === null ? null : { type: "renewed", expires_in: left };
    }
    case "table":
      return parseTable(data);
    case "lobby": {
      const lobby = data["lobby"];
      const lastResult = isObject(data["last_result"]) ? data["last_result"] : null;
      const games = (Array.isArray(data["games"]) ? data["games"] : []).map(gameInfo).filter((g): g is GameInfo => g !== null);
      if (!isObject(lobby) || !isGame(lobby["game"])) {
        return { type: "lobby", lobby: null, last_result: lastResult, games, can_post: typeof data["can_post"] === "boolean" ? data["can_post"] : null };
      }
      return {
        type: "lobby",
        lobby: {
          game: lobby["game"],
          game_id: Number(lobby["game_id"]),
          host: lobby["host"] === true,
          host_name: typeof lobby["host_name"] === "string" ? lobby["host_name"] : "",
          players: Array.isArray(lobby["players"]) ? lobby["players"].map(player) : [],
          min: Number(lobby["min"] ?? 1),
          max: Number(lobby["max"] ?? 1),
          joined: lobby["joined"] === true,
          can_start: lobby["can_start"] === true,
          computers: lobby["computers"] !== false,
        },
        last_result: lastResult,
        games,
      };
    }
    case "refused":
      return { type: "refused", reason: String(data["reason"] ?? "") };
    case "notice":
      return { type: "notice", text: String(data["text"] ?? "") };
    case "waiting":
      return { type: "waiting", next_game: data["next_game"] === true };
    case "shared": {
      const url = data["url"], gameId = data["game_id"];
      if (typeof url !== "string" || !url.startsWith("https://") || url.length > MEDIA_URL_MAX) return null;
      if (typeof gameId !== "number" || !Number.isInteger(gameId)) return null;
      return { type: "shared", game_id: gameId, url };
    }
    default:
      return null;
  }
}

/** A CDN path as the backend makes them (web/members.py): letters, digits and ``/._?=``, no
 * ``..`` and no scheme, so it can only name a file under the CDN's mapping. */
export function avatarPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 200) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9/._?=-]*$/.test(value) || value.includes("..")) return null;
  return value;
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function panel(data: Record<string, unknown>): Panel {
  const fields = Array.isArray(data["fields"]) ? data["fields"] : [];
  return {
    title: text(data["title"]),
    description: text(data["description"]),
    fields: fields.filter(Array.isArray).map((f: unknown[]) => [text(f[0]), text(f[1])] as [string, string]),
    footer: text(data["footer"]),
  };
}

function parseTable(data: Record<string, unknown>): TableMessage | null {
  if (!isGame(data["game"]) || !isObject(data["view"])) return null;
  const moves = Array.isArray(data["moves"]) ? data["moves"] : [];
  const seats = Array.isArray(data["seats"]) ? data["seats"] : [];
  return {
    type: "table",
    game: data["game"],
    game_id: Number(data["game_id"]),
    version: Number(data["version"] ?? 0),
    seat: typeof data["seat"] === "number" ? data["seat"] : null,
    step: typeof data["step"] === "number" ? data["step"] : null,
    view: data["view"],
    moves: moves.filter(isObject).map((m) => ({
      action: String(m["action"]),
      label: String(m["label"] ?? m["action"]),
    })),
    panels: (Array.isArray(data["panels"]) ? data["panels"] : []).filter(isObject).map(panel),
    seats: seats.filter(isObject).map((s) => ({
      name: String(s["name"] ?? ""),
      avatar: avatarPath(s["avatar"]),
      computer: s["computer"] === true,
      level: typeof s["level"] === "string" ? s["level"] : null,
      you: s["you"] === true,
      deadline: typeof s["deadline"] === "number" && Number.isFinite(s["deadline"]) ? s["deadline"] : null,
    })),
    to_act: numbers(data["to_act"]),
    deadline: typeof data["deadline"] === "number" ? data["deadline"] : null,
    last: Array.isArray(data["last"]) ? data["last"].map(String) : [],
    scores: isObject(data["scores"]) ? data["scores"] : null,
    status: data["status"] === "finished" ? "finished" : "active",
    result: isObject(data["result"]) ? data["result"] : null,
  };
}
