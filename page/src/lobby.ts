// The channel without a running game: open a game (or play one with computers at once), join
// it, leave it, add, change or remove computers, start or cancel it, invite people (inside
// Discord, through its invite dialog). What is shown is worked
// out first (lobbyScreen, no DOM, tested), then drawn.

import { h } from "./dom";
import type { Words } from "./i18n";
import { rich, stripped } from "./markdown";
import { GAMES, resultPanel, type Game, type GameInfo, type Lobby, type LobbyMessage, type LobbyOp } from "./protocol";

export interface LobbyExtra {
  game?: Game;
  level?: string;
  seat?: number;
  name?: string;
  game_id?: number;
}

export type LobbySend = (op: LobbyOp, extra?: LobbyExtra) => void;

export const LEVELS = ["easy", "normal", "hard"] as const;

/** One button: what it says, what it sends, and its key (``data-lobby``, kept by the tests). */
export interface Control {
  key: string;
  label: string;
  op: LobbyOp;
  extra?: LobbyExtra;
  /** Its words for a screen reader when the label alone is not enough. */
  name?: string;
  primary?: boolean;
  /** A level button of the computer's current level (shown pressed, sends nothing). */
  pressed?: boolean;
}

/** One seat of the lobby as shown: the name, and for a computer its level and controls. */
export interface SeatLine {
  text: string;
  computer: boolean;
  controls: Control[];
}

/** A game the channel can open: its line, and its two buttons. */
export interface Opener {
  game: Game;
  line: string;
  controls: Control[];
}

export interface LobbyScreen {
  title: string;
  line: string;
  count: string;
  seats: SeatLine[];
  /** Who starts, or what is missing ("Waiting for Ana to start."). */
  waiting: string;
  controls: Control[];
  openers: Opener[];
}

export function levelWord(level: string, words: Words): string {
  if (level === "easy") return words.pgettext("computer level", "easy");
  if (level === "hard") return words.pgettext("computer level", "hard");
  return words.pgettext("computer level", "normal");
}

/** One line on a game and its count of players, in the viewer's language. */
export function gameLine(info: GameInfo, words: Words): string {
  const values = { title: words.title(info.game), min: info.min, max: info.max };
  switch (info.game) {
    case "grinch":
      return words._("{title}, for {min} to {max} players: build the best hand each round; the Grinch may take the others' discards.", values);
    case "gnome":
      return words._("{title}, for {min} to {max} players: Golf on a grid of nine cards; the lowest total after three rounds wins.", values);
    case "hearts":
      return words._("{title}, for two: take no hearts and keep away from the queen of spades; the lower total wins.", values);
    case "ten":
      return words._("{title}, for {min} to {max} players: turn cards up without going past ten, and bid for the wild cards.", values);
  }
  if (info.min === info.max) return words.ngettext("{title}, for {n} player.", "{title}, for {n} players.", info.min, { ...values, n: info.min });
  return words._("{title}, for {min} to {max} players.", values);
}

/** The games the channel can open: the frame's, else the registry's names alone. */
function gamesOf(message: LobbyMessage): GameInfo[] {
  return message.games.length > 0 ? message.games : GAMES.map((game) => ({ game, min: 1, max: 1 }));
}

/** The buttons that open each game, or play it with computers at once. */
export function openers(message: LobbyMessage, words: Words): Opener[] {
  return gamesOf(message).map((info) => {
    const title = words.title(info.game);
    return {
      game: info.game,
      line: message.games.length > 0 ? gameLine(info, words) : title,
      controls: [
        { key: `open:${info.game}`, label: words._("Open {title}", { title }), op: "open", extra: { game: info.game } },
        {
          key: `play_computers:${info.game}`,
          label: words._("Play with computers"),
          name: words._("Play {title} with computers now", { title }),
          op: "play_computers",
          extra: { game: info.game },
        },
      ],
    };
  });
}

function seatLines(lobby: Lobby, words: Words): SeatLine[] {
  return lobby.players.map((player) => {
    if (!player.computer) {
      const text = player.name === lobby.host_name ? words._("{name} (opened the game)", { name: player.name }) : player.name;
      return { text: player.accepted ? text : words._("{name} (challenged)", { name: player.name }), computer: false, controls: [] };
    }
    const level = player.level ?? "normal";
    const text = `${player.name} 🤖 ${levelWord(level, words)}`;
    if (!lobby.joined) return { text, computer: true, controls: [] };
    const controls: Control[] = LEVELS.map((each) => ({
      key: `computer_level:${player.seat}:${each}`,
      label: levelWord(each, words),
      name: words._("{name} plays {level}", { name: player.name, level: levelWord(each, words) }),
      op: "computer_level" as const,
      extra: { seat: player.seat, name: player.name, level: each },
      pressed: each === level,
    }));
    controls.push({
      key: `remove_computer:${player.seat}`,
      label: words._("Remove"),
      name: words._("Remove {name}", { name: player.name }),
      op: "remove_computer",
      extra: { seat: player.seat, name: player.name },
    });
    return { text, computer: true, controls };
  });
}

function waitingLine(lobby: Lobby, words: Words): string {
  const missing = lobby.min - lobby.players.length;
  if (lobby.host && missing > 0) {
    return words.ngettext("One more player is needed to start.", "{n} more players are needed to start.", missing, { n: missing });
  }
  if (lobby.host) return words._("Start when everyone is here.");
  return words._("Waiting for {name} to start.", { name: lobby.host_name || "?" });
}

/** What the lobby frame shows this viewer, without the DOM. */
export function lobbyScreen(message: LobbyMessage, words: Words): LobbyScreen {
  const lobby = message.lobby;
  if (lobby === null) {
    return {
      title: words._("The table is free"),
      line: words._("Open a game for this channel:"),
      count: "",
      seats: [],
      waiting: "",
      controls: [],
      openers: openers(message, words),
    };
  }
  const info = message.games.find((g) => g.game === lobby.game) ?? { game: lobby.game, min: lobby.min, max: lobby.max };
  const controls: Control[] = [];
  const room = lobby.players.length < lobby.max;
  if (!lobby.joined && room) controls.push({ key: "join", label: words._("Join"), op: "join", primary: true });
  if (lobby.joined && lobby.computers && room) {
    for (const level of LEVELS) {
      controls.push({ key: `add_computer:${level}`, label: words._("Add a computer ({level})", { level: levelWord(level, words) }), op: "add_computer", extra: { level } });
    }
  }
  if (lobby.host && lobby.computers && lobby.players.length < Math.min(Math.max(lobby.min, 2), lobby.max)) {
    controls.push({ key: "play_computers", label: words._("Play with computers"), name: words._("Fill the seats with computers and start"), op: "play_computers", primary: true });
  }
  if (lobby.can_start) controls.push({ key: "start", label: words._("Start"), op: "start", primary: true });
  if (lobby.joined && !lobby.host) controls.push({ key: "leave", label: words._("Leave"), op: "leave" });
  if (lobby.host) controls.push({ key: "cancel", label: words._("Cancel the game"), op: "cancel" });
  return {
    title: words.title(lobby.game),
    line: gameLine(info, words),
    count: words._("{n} of {max} players (at least {min}).", { n: lobby.players.length, max: lobby.max, min: lobby.min }),
    seats: seatLines(lobby, words),
    waiting: waitingLine(lobby, words),
    controls,
    openers: [],
  };
}

/** Whether a lobby offers Discord's invite dialog: it lacks players (fewer seated than the
 * game's least), or it has room and the viewer hosts it. */
export function offersInvite(lobby: Lobby): boolean {
  const seated = lobby.players.length;
  return seated < lobby.min || (lobby.host && seated < lobby.max);
}

/** A control as a button; pressed once, it waits for the next frame (a double press sends once). */
export function controlButton(control: Control, send: LobbySend): HTMLButtonElement {
  const button = h("button", {
    class: control.primary ? "move primary" : "move",
    "data-lobby": control.key,
    "aria-label": control.name,
    "aria-pressed": control.pressed === undefined ? undefined : String(control.pressed),
  }, control.label);
  button.addEventListener("click", () => {
    if (control.pressed || button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    send(control.op, control.extra);
  });
  return button;
}

function row(controls: Control[], send: LobbySend, className = "moves"): HTMLElement {
  return h("div", { class: className }, ...controls.map((c) => controlButton(c, send)));
}

/** The games the channel can open (under a finished game's result too). */
export function drawOpeners(list: Opener[], send: LobbySend): HTMLElement {
  return h("ul", { class: "openers" }, ...list.map((o) => h("li", { "data-game": o.game }, h("p", { class: "game-line" }, o.line), row(o.controls, send))));
}

/** The lobby; ``invite`` opens Discord's invite dialog (null outside Discord: not offered). */
export function drawLobby(message: LobbyMessage, words: Words, send: LobbySend, invite: (() => void) | null = null): HTMLElement {
  const screen = lobbyScreen(message, words);
  const parts: HTMLElement[] = [h("h1", {}, screen.title), h("p", { class: "game-line" }, screen.line)];
  if (message.lobby !== null) {
    parts.push(
      h("p", {}, screen.count),
      h("ul", { class: "players" }, ...screen.seats.map((seat) => h("li", { class: seat.computer ? "computer" : "person" },
        h("span", { class: "seat-name" }, seat.text),
        seat.controls.length > 0 ? row(seat.controls, send, "moves levels") : null))),
      h("p", { class: "waiting", role: "status" }, screen.waiting),
      row(screen.controls, send),
    );
    if (invite && offersInvite(message.lobby)) {
      const button = h("button", { type: "button", class: "move", "data-lobby": "invite", "aria-label": words._("Invite people to this game") }, words._("Invite"));
      button.onclick = () => invite();
      parts.push(h("div", { class: "moves invite" }, button));
    }
  } else {
    parts.push(drawOpeners(screen.openers, send));
  }
  const last = resultPanel(message.last_result);
  if (last) {
    const box = h("section", { class: "panel result" }, h("h3", {}, stripped(last.title)));
    if (last.description) box.append(rich("p", { class: "description" }, last.description));
    for (const [name, value] of last.fields) box.append(h("p", {}, h("strong", {}, stripped(name)), " ", rich("span", {}, value)));
    parts.push(box);
  }
  return h("div", { class: "lobby" }, ...parts);
}
