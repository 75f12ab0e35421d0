// The end of a game: the result screen (the winner, the standings, a chart of every player's
// total after each round, Play again, Share inside Discord), drawn above the game's final table. Its numbers are the
// server's score sheet's (web/ending.py), the ones the chat's result and /scores show.

import { escape } from "./cards";
import { h, svgBox } from "./dom";
import type { Words } from "./i18n";
import { rich, stripped } from "./markdown";
import type { TableMessage } from "./protocol";

export interface Standing {
  seat: number;
  name: string;
  total: number;
  place: number;
  winner: boolean;
}

/** What the result screen shows of a finished game (a lobby frame's ``last_result``). */
export interface Ending {
  game: string;
  game_id: number;
  names: string[];
  standings: Standing[];
  /** Every player's total after each round, in seat order; the last row is the totals. */
  rounds: number[][];
  lowest_wins: boolean;
  /** The final table as this viewer sees it, if the server sent it. */
  table: TableMessage | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function whole(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The ending in a last result, or null when it carries no standings (an older server). */
export function endingOf(result: Record<string, unknown> | null, table: TableMessage | null = null): Ending | null {
  if (!result || !Array.isArray(result["standings"])) return null;
  const standings: Standing[] = [];
  for (const row of result["standings"]) {
    if (!isObject(row)) return null;
    const seat = whole(row["seat"]), total = whole(row["total"]), place = whole(row["place"]);
    if (seat === null || total === null || place === null) return null;
    standings.push({ seat, total, place, name: String(row["name"] ?? "?"), winner: row["winner"] === true });
  }
  const rounds = Array.isArray(result["rounds"])
    ? result["rounds"].filter(Array.isArray).map((row: unknown[]) => row.map((v) => whole(v) ?? 0))
    : [];
  const names = Array.isArray(result["names"]) ? result["names"].map(String) : standings.map((s) => s.name);
  return {
    game: String(result["game"] ?? ""),
    game_id: Number(result["game_id"] ?? 0),
    names,
    standings,
    rounds: rounds.filter((row) => row.length === names.length),
    lowest_wins: result["lowest_wins"] === true,
    table,
  };
}

/** The sentence naming the winners ("Ana wins!", "Ana and Bo share the win!"). */
export function winnerLine(ending: Ending, words: Words): string {
  const winners = ending.standings.filter((s) => s.winner).map((s) => s.name);
  if (!winners.length) return words._("No winner this time.");
  return words.ngettext("{names} wins!", "{names} share the win!", winners.length, { names: winners.join(", ") });
}

// One colour per seat, each at least 3:1 against the chart's paper (and told apart by its
// label and its mark too, not by colour alone).
const LINE_COLOURS = ["#1f5fa8", "#b3261e", "#1b7a3a", "#7b3fa0", "#8a5a00", "#00707a", "#b0306a"];
const MARKS = ["circle", "square", "diamond", "triangle", "circle", "square", "diamond"];

function mark(kind: string, x: number, y: number, colour: string): string {
  const r = 4;
  const at = (n: number): string => n.toFixed(1);
  switch (kind) {
    case "square":
      return `<rect x="${at(x - r)}" y="${at(y - r)}" width="${2 * r}" height="${2 * r}" fill="${colour}"/>`;
    case "diamond":
      return `<path d="M${at(x)} ${at(y - r - 1)}L${at(x + r + 1)} ${at(y)}L${at(x)} ${at(y + r + 1)}L${at(x - r - 1)} ${at(y)}Z" fill="${colour}"/>`;
    case "triangle":
      return `<path d="M${at(x)} ${at(y - r - 1)}L${at(x + r + 1)} ${at(y + r)}L${at(x - r - 1)} ${at(y + r)}Z" fill="${colour}"/>`;
    default:
      return `<circle cx="${at(x)}" cy="${at(y)}" r="${r}" fill="${colour}"/>`;
  }
}

/** The chart: every player's total after each round, from 0 before the first, as SVG markup
 * (every text escaped). Empty when the game scored no round. */
export function chartSvg(ending: Ending, words: Words): string {
  const rows = ending.rounds;
  if (!rows.length) return "";
  const players = ending.names.length;
  const points = [new Array<number>(players).fill(0), ...rows];
  const all = points.flat();
  const low = Math.min(0, ...all), high = Math.max(1, ...all);
  const width = 340, height = 200, left = 40, right = 12, top = 12, bottom = 28;
  const x = (i: number): number => left + ((width - left - right) * i) / Math.max(1, points.length - 1);
  const y = (v: number): number => top + ((height - top - bottom) * (high - v)) / (high - low);
  const title = words._("Scores after each round");
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(title)}">`,
    `<title>${escape(title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" rx="6" fill="#fdfaf2"/>`,
    `<line x1="${left}" y1="${y(low).toFixed(1)}" x2="${width - right}" y2="${y(low).toFixed(1)}" stroke="#222" stroke-width="1"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${y(low).toFixed(1)}" stroke="#222" stroke-width="1"/>`,
  ];
  for (const value of new Set([low, high, ...(low < 0 ? [0] : [])])) {
    parts.push(`<text x="${left - 4}" y="${y(value).toFixed(1)}" font-size="11" fill="#222" text-anchor="end" dominant-baseline="central">${value}</text>`);
  }
  parts.push(`<text x="${left}" y="${height - 10}" font-size="11" fill="#222" text-anchor="start">0</text>`);
  const lastRound = words._("Round {n}", { n: rows.length });
  parts.push(`<text x="${width - right}" y="${height - 10}" font-size="11" fill="#222" text-anchor="end">${escape(lastRound)}</text>`);
  for (let seat = 0; seat < players; seat++) {
    const colour = LINE_COLOURS[seat % LINE_COLOURS.length] ?? "#222";
    const path = points.map((row, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(row[seat] ?? 0).toFixed(1)}`).join("");
    parts.push(`<path class="series" data-seat="${seat}" d="${path}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    points.forEach((row, i) => {
      if (i) parts.push(mark(MARKS[seat % MARKS.length] ?? "circle", x(i), y(row[seat] ?? 0), colour));
    });
  }
  parts.push("</svg>");
  return parts.join("");
}

/** The chart's key: each player's name in their line's colour. */
function legend(ending: Ending): HTMLElement {
  const list = h("ul", { class: "legend" });
  ending.names.forEach((name, seat) => {
    const colour = LINE_COLOURS[seat % LINE_COLOURS.length] ?? "#222";
    const swatch = svgBox(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 12" aria-hidden="true">${mark(MARKS[seat % MARKS.length] ?? "circle", 6, 6, colour)}</svg>`, "swatch");
    list.append(h("li", {}, swatch, stripped(name)));
  });
  return list;
}

/** Share on the result screen: ``send`` asks the server for the picture (null outside
 * Discord: no share dialog, no button); ``waiting``, a press is on its way. */
export interface Sharing {
  send: ((gameId: number) => void) | null;
  waiting: boolean;
}

/** The result screen; ``playAgain`` asks for a new lobby of the same players. */
export function drawEnding(ending: Ending, words: Words, playAgain: (gameId: number) => void, sharing: Sharing = { send: null, waiting: false }): HTMLElement {
  const standings = h("table", { class: "standings" },
    h("caption", {}, words._("Standings")),
    h("tr", {}, h("th", { scope: "col" }, words._("Place")), h("th", { scope: "col" }, words._("Player")),
      h("th", { scope: "col" }, words._("Points"))));
  for (const row of ending.standings) {
    standings.append(h("tr", { class: row.winner ? "winner" : "" },
      h("td", {}, String(row.place)), h("th", { scope: "row" }, row.winner ? "★ " : "", stripped(row.name)),
      h("td", {}, String(row.total))));
  }
  // Play again is the players' (the backend refuses anyone else): a viewer the final table
  // shows without a seat (a spectator, or someone who left the game) is not offered it.
  const played = ending.table === null || ending.table.seat !== null;
  const again = played ? h("button", { type: "button", class: "move primary", "data-lobby": "play_again" }, words._("Play again")) : null;
  if (again) again.onclick = () => playAgain(ending.game_id);
  // Share: the final table's picture through Discord's share dialog, for anyone watching.
  const send = sharing.send;
  const share = send ? h("button", { type: "button", class: "move", "data-lobby": "share", "aria-disabled": sharing.waiting ? "true" : undefined,
    "aria-label": words._("Share the final table") }, words._("Share")) : null;
  if (share && send) {
    share.onclick = () => {
      if (!sharing.waiting) send(ending.game_id);
    };
  }
  const chart = chartSvg(ending, words);
  return h("section", { class: "ending", "aria-labelledby": "ending-title" },
    h("h2", { id: "ending-title" }, words._("The game is over.")),
    rich("p", { class: "winner-line" }, winnerLine(ending, words)),
    standings,
    chart ? h("figure", { class: "chart" }, svgBox(chart, "chart-box"), legend(ending)) : null,
    again || share ? h("div", { class: "moves" }, again, share) : null);
}
