// A channel with no game where the bot may not post (the table opened from the App Launcher in
// such a channel, or a lobby Discord refused): the screen says so plainly, with "Check again"
// for after an admin's fix, instead of offering games the bot cannot host there. Where it may
// post, the lobby screen (lobby.ts) offers the games.

import { h } from "./dom";
import type { Words } from "./i18n";

/** The screen; ``after`` a finished game (its result above), as a section of that screen. */
export function drawCannotPost(words: Words, check: () => void, after = false): HTMLElement {
  const line = h("p", { class: "notice cannot-post", role: "alert" },
    words._("I can't post in this channel: ask an admin to let me send messages here, or open the table in another channel."));
  const again = h("button", { class: "move", "data-lobby": "check" }, words._("Check again"));
  again.addEventListener("click", () => check());
  const parts = [after ? null : h("h1", {}, words._("The table is free")), line, h("div", { class: "moves" }, again)];
  return h(after ? "section" : "div", { class: after ? "start after" : "lobby start" }, ...parts);
}
