// A channel with no game (the table opened from the App Launcher, or after a game): the games
// that can be started here, each with one line and its number of players. Starting one opens
// its lobby in this channel, as `/<game> start` does, with the lobby's message in the chat.
// Where the bot may not post, the screen says so instead of offering games it cannot host.

import { h } from "./dom";
import type { Words } from "./i18n";
import type { Game, GameOffer, LobbyMessage } from "./protocol";
import { GAMES } from "./protocol";

export interface StartActions {
  /** Open ``game``'s lobby in this channel. */
  start(game: Game): void;
  /** Ask again whether the bot may post here (after an admin's fix). */
  check(): void;
}

/** The one line that says what a game is (null: a game this page has no line for). */
export function gameLine(game: Game, words: Words): string | null {
  switch (game) {
    case "grinch": return words._("Build a five-card hand each round, as a Who or as the Grinch; highest total wins.");
    case "gnome": return words._("Golf with gnomes: swap cards into your 3×3 grid for the lowest score.");
    case "hearts": return words._("Hearts for two: dodge the hearts and the queen of spades, or shoot the moon.");
    case "ten": return words._("Turn cards up to ten without busting, bid for wilds, build runs of each colour.");
    default: return null;
  }
}

/** "2–6 players", "2 players", "1–5 players", in the viewer's language. */
export function playersLine(offer: GameOffer, words: Words): string {
  if (offer.min === offer.max) return words.ngettext("{n} player", "{n} players", offer.max, { n: offer.max });
  return words.ngettext("{min}–{max} player", "{min}–{max} players", offer.max, { min: offer.min, max: offer.max });
}

/** The games to offer: the backend's, else the ones the page was built with (seat counts
 * unknown: an older backend). */
function offers(message: LobbyMessage): GameOffer[] {
  if (message.games && message.games.length > 0) return message.games;
  return GAMES.map((game) => ({ game, min: 0, max: 0 }));
}

/** The start screen; ``after`` a finished game (its result above), under a smaller heading. */
export function drawStart(message: LobbyMessage, words: Words, actions: StartActions, after = false): HTMLElement {
  const parts: HTMLElement[] = [after ? h("h2", {}, words._("Start another game")) : h("h1", {}, words._("The table is free"))];
  if (message.can_post === false) {
    parts.push(h("p", { class: "notice cannot-post", role: "alert" },
      words._("I can't post in this channel: ask an admin to let me send messages here, or open the table in another channel.")));
    const again = h("button", { class: "move", "data-lobby": "check" }, words._("Check again"));
    again.addEventListener("click", () => actions.check());
    parts.push(h("div", { class: "moves" }, again));
    return h(after ? "section" : "div", { class: after ? "start after" : "lobby start" }, ...parts);
  }
  parts.push(h("p", {}, words._("Pick a game to start here. Its lobby appears in the chat too, for the others to join.")));
  const list = h("ul", { class: "games" });
  for (const offer of offers(message)) {
    const title = words.title(offer.game);
    const line = gameLine(offer.game, words);
    const count = offer.max > 0 ? playersLine(offer, words) : null;
    const button = h("button", { class: "move primary", "data-lobby": `open:${offer.game}` },
      words._("Start {game}", { game: title }));
    button.addEventListener("click", () => actions.start(offer.game));
    list.append(h("li", { class: "game-offer" },
      h(after ? "h3" : "h2", {}, title),
      line ? h("p", { class: "line" }, line) : null,
      count ? h("p", { class: "count" }, count) : null,
      button));
  }
  parts.push(list);
  return h(after ? "section" : "div", { class: after ? "start after" : "lobby start" }, ...parts);
}
