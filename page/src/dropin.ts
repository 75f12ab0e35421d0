// Beside a running game's table: a spectator watches and may ask for a seat in the next game
// (and give it up again); a player may leave the game (after a confirm step, a computer takes
// the seat, as in the chat).

import { h } from "./dom";
import type { Words } from "./i18n";
import { controlButton, type Control, type LobbySend } from "./lobby";
import type { TableMessage } from "./protocol";

/** What the page remembers about the viewer and the running game between frames. */
export interface DropInState {
  /** The game whose leaving the viewer is asked to confirm (null: not asked). */
  confirming: number | null;
  /** The viewer waits for a seat in the channel's next game. */
  waiting: boolean;
}

export interface DropInScreen {
  text: string;
  controls: Control[];
}

/** What the bar under a running game shows this viewer (null: nothing, the game is over). */
export function dropInScreen(table: TableMessage, state: DropInState, words: Words): DropInScreen | null {
  if (table.status !== "active") return null;
  const game_id = table.game_id;
  if (table.seat === null) {
    if (state.waiting) {
      return {
        text: words._("You are watching. You will have a seat in the next game."),
        controls: [{ key: "skip_next_game", label: words._("Give up the seat"), op: "skip_next_game", extra: { game_id } }],
      };
    }
    return {
      text: words._("You are watching this game."),
      controls: [{ key: "next_game", label: words._("Join the next game"), op: "next_game", extra: { game_id }, primary: true }],
    };
  }
  if (state.confirming === game_id) {
    return {
      text: words._("Leave this game? A computer player takes your seat and plays it to the end, and the result will show that you left."),
      controls: [
        { key: "leave_game", label: words._("Leave, a computer plays my seat"), op: "leave_game", extra: { game_id } },
        { key: "stay", label: words._("Stay in the game"), op: "leave_game", primary: true },
      ],
    };
  }
  return { text: "", controls: [{ key: "ask_leave", label: words._("Leave the game"), op: "leave_game" }] };
}

/** The bar itself: ``ask`` and ``stay`` only change what the page shows (no message sent). */
export function drawDropIn(screen: DropInScreen, send: LobbySend, ask: () => void, stay: () => void): HTMLElement {
  const buttons = screen.controls.map((control) => {
    if (control.key === "ask_leave" || control.key === "stay") {
      const button = h("button", { class: control.primary ? "move primary" : "move", "data-lobby": control.key }, control.label);
      button.addEventListener("click", control.key === "stay" ? stay : ask);
      return button;
    }
    return controlButton(control, send);
  });
  return h("section", { class: "dropin", "aria-label": screen.text || undefined },
    screen.text ? h("p", { role: "status" }, screen.text) : null,
    buttons.length > 0 ? h("div", { class: "moves" }, ...buttons) : null);
}
