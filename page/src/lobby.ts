// The channel without a running game: open a game, join it, add computers, start it.

import { h } from "./dom";
import type { Words } from "./i18n";
import { rich, stripped } from "./markdown";
import { GAMES, resultPanel, type Game, type LobbyMessage, type LobbyOp } from "./protocol";
import { titleOf } from "./table";

export type LobbySend = (op: LobbyOp, extra?: { game?: Game; level?: string }) => void;

function levels(words: Words): [string, string][] {
  return [
    ["easy", words.pgettext("computer level", "easy")],
    ["normal", words.pgettext("computer level", "normal")],
    ["hard", words.pgettext("computer level", "hard")],
  ];
}

export function drawLobby(message: LobbyMessage, words: Words, send: LobbySend): HTMLElement {
  const lobby = message.lobby;
  const parts: HTMLElement[] = [h("h1", {}, words._("The table is free"))];
  if (lobby === null) {
    parts.push(h("p", {}, words._("Open a game for this channel:")));
    const row = h("div", { class: "moves" });
    for (const game of GAMES) {
      const button = h("button", { class: "move", "data-lobby": `open:${game}` }, titleOf(game, words));
      button.addEventListener("click", () => send("open", { game }));
      row.append(button);
    }
    parts.push(row);
  } else {
    parts[0] = h("h1", {}, titleOf(lobby.game, words));
    parts.push(
      h("p", {}, words._("{n} of {max} players (at least {min}).", { n: lobby.players.length, max: lobby.max, min: lobby.min })),
      h("ul", { class: "players" }, ...lobby.players.map((name) => h("li", {}, name))),
    );
    const row = h("div", { class: "moves" });
    if (!lobby.joined) {
      const join = h("button", { class: "move", "data-lobby": "join" }, words._("Join"));
      join.addEventListener("click", () => send("join"));
      row.append(join);
    }
    if (lobby.computers && lobby.players.length < lobby.max) {
      for (const [level, name] of levels(words)) {
        const add = h("button", { class: "move", "data-lobby": `add_computer:${level}` },
          words._("Add a computer ({level})", { level: name }));
        add.addEventListener("click", () => send("add_computer", { level }));
        row.append(add);
      }
    }
    if (lobby.can_start) {
      const start = h("button", { class: "move primary", "data-lobby": "start" }, words._("Start"));
      start.addEventListener("click", () => send("start"));
      row.append(start);
    }
    parts.push(row);
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
