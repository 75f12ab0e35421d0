// What a screen reader is told when a new table comes: the moves made since the last one and,
// when it has just become the viewer's turn, that it has. One polite live region outside the
// redrawn table says it (the table itself is redrawn whole, so it is no live region).

import { newEntries } from "./changes";
import type { Words } from "./i18n";
import { stripped } from "./markdown";
import type { TableMessage } from "./protocol";

function myTurn(table: TableMessage): boolean {
  return table.seat !== null && table.to_act.includes(table.seat);
}

/** The words to announce for ``now`` after ``before`` (null: the first table shown). */
export function announcement(before: TableMessage | null, now: TableMessage, words: Words): string {
  const same = before !== null && before.game_id === now.game_id;
  if (same && before.version === now.version) return "";
  const lines = same ? newEntries(before.last, now.last) : now.last.slice(-1);
  const parts = lines.map(stripped);
  if (myTurn(now) && !(same && myTurn(before))) parts.push(words._("Your turn."));
  return parts.join(" ");
}
