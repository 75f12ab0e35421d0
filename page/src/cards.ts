// Card faces as SVG, drawn like the pictures' faces (presentation/<game>/look.py): the same
// colours, symbols and patterns, so a card never relies on its colour alone.

import type { Game } from "./protocol";
import type { Words } from "./i18n";
import { LOOKS, type Looks } from "./looks";
import { isSymbol, symbol } from "./symbols";

const W = 100;
const H = 140;
const P = LOOKS.palette;

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sym(name: string | null | undefined, cx: number, cy: number, r: number, fill: string): string {
  return name && isSymbol(name) ? symbol(name, cx, cy, r, fill) : "";
}

function label(x: number, y: number, content: string, size: number, fill: string, bold = true, anchor = "middle"): string {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" text-anchor="${anchor}" dominant-baseline="central"${bold ? ' font-weight="700"' : ""}>${escape(content)}</text>`;
}

function blank(fill: string): string {
  return `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="8" fill="${fill}" stroke="${P.ink}" stroke-width="1.4"/>`;
}

/** A background pattern (stripes, dots, rings, checks) clipped to the card's inner box. */
function pattern(kind: string, colour: string, step: number): string {
  const id = `pt-${kind}-${colour.slice(1)}-${step}`;
  let tile = "";
  if (kind === "stripes") tile = `<path d="M0,0 L${step},${step}" stroke="${colour}" stroke-width="${step / 4}"/>`;
  else if (kind === "dots") tile = `<circle cx="${step / 2}" cy="${step / 2}" r="${step / 6}" fill="${colour}"/>`;
  else if (kind === "rings") tile = `<circle cx="${step / 2}" cy="${step / 2}" r="${step / 4}" fill="none" stroke="${colour}" stroke-width="${Math.max(1, step / 12)}"/>`;
  else tile = `<rect width="${step / 2}" height="${step / 2}" fill="${colour}"/><rect x="${step / 2}" y="${step / 2}" width="${step / 2}" height="${step / 2}" fill="${colour}"/>`;
  return (
    `<defs><pattern id="${id}" width="${step}" height="${step}" patternUnits="userSpaceOnUse">${tile}</pattern></defs>` +
    `<rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="4" fill="url(#${id})"/>`
  );
}

function grinchFace(card: string, words: Words): string {
  const look = LOOKS.games.grinch;
  const suit = look.suits[card[0] ?? ""];
  if (!suit) return unknown(card);
  const rank = card[1] ?? "?";
  let out = blank(suit.tint) + pattern(suit.pattern, suit.pattern_colour, 11);
  out += `<rect x="6" y="6" width="26" height="47" rx="4" fill="${P.paper}"/>`;
  out += label(19, 21, rank, 30, suit.ink);
  out += `<circle cx="19" cy="41" r="10" fill="${suit.colour}"/>` + sym(suit.emblem, 19, 41, 6.4, suit.on);
  out += label(80, 126, rank, 13, suit.ink, false, "end") + sym(suit.emblem, 89, 127, 5.5, suit.ink);
  out += `<circle cx="58" cy="63" r="27" fill="${P.paper}" stroke="${suit.ink}" stroke-width="1.6"/>`;
  out += sym(suit.emblem, 58, 63, 18, card[0] === "N" ? suit.ink : suit.colour);
  const bonus = look.bonus[card];
  if (bonus) {
    const target = look.suits[bonus.target];
    out += sym("star", 84, 16, 14, P.ink) + sym("star", 84, 16, 12, P.gold);
    out += `<rect x="8" y="102" width="84" height="18" rx="3" fill="${P.gold}" stroke="${P.ink}" stroke-width="1"/>`;
    out += label(36, 111, bonus.points, 11, P.ink);
    if (target) out += `<circle cx="70" cy="111" r="7" fill="${target.colour}"/>` + sym(target.emblem, 70, 111, 4.6, target.on);
    const name = look.names[card];
    if (name) out += label(50, 94, words._(name), 9, P.ink);
  }
  return out;
}

function gnomeFace(card: string, words: Words): string {
  const look = LOOKS.games.gnome;
  const key = card.slice(0, 2);
  if (key === "HZ") {
    return (
      blank(look.hazard) + pattern("stripes", P.ink, 16) +
      `<rect x="12" y="28" width="76" height="84" rx="5" fill="${P.paper}" stroke="${P.ink}" stroke-width="2"/>` +
      sym("warning", 50, 53, 20, look.vermilion) + label(50, 84, "+10", 22, P.ink) +
      label(50, 102, words.pgettext("card face", "HAZARD"), 10, P.ink)
    );
  }
  if (key === "MU") {
    return (
      blank(look.mulligan) + pattern("rings", look.mulligan_ring, 14) +
      // The star alone marks the wild card: no initial to translate.
      sym("star", 50, 59, 32, look.star) +
      label(50, 105, words.pgettext("card face", "WILD"), 16, P.white)
    );
  }
  const value = look.values[key];
  if (!value) return unknown(card);
  const text = String(value.value);
  let out = blank(value.tint);
  out += `<rect x="8" y="28" width="84" height="73" rx="5" fill="${value.band}" stroke="${value.outline}" stroke-width="2"/>`;
  out += label(50, 64, text, 50, value.ink);
  out += label(20, 14, text, 15, value.pip) + label(80, 14, text, 15, value.pip);
  const count = Math.abs(value.value);
  const gap = 11.25;
  for (let i = 0; i < count; i++) {
    const x = 50 - (gap * (count - 1)) / 2 + i * gap;
    out += key[0] === "P"
      ? `<circle cx="${x}" cy="118" r="4.5" fill="${value.pip}"/>`
      : `<circle cx="${x}" cy="118" r="3.8" fill="none" stroke="${value.pip}" stroke-width="1.6"/>`;
  }
  return out;
}

function heartsFace(card: string, words: Words): string {
  const look = LOOKS.games.hearts;
  const suitKey = card.slice(-1);
  const rank = card.slice(0, -1);
  const suit = look.suits[suitKey];
  if (!suit) return unknown(card);
  let out = blank(P.white);
  out += label(22, 20, rank, rank.length === 2 ? 27 : 32, suit.colour);
  out += sym(suit.shape, 22, 50, 14, suit.colour);
  out += sym(suit.shape, 62, 70, 24, suit.colour);
  out += label(73, 126, rank, 14, suit.colour, true, "end") + sym(suit.shape, 83, 126, 7, suit.colour);
  if (card === look.queen) {
    out += sym("star", 22, 95, 17, P.gold) + label(22, 96, "13", 12, P.ink);
  } else if (look.points[card]) {
    out += `<rect x="8" y="120" width="34" height="13" rx="2.5" fill="${suit.colour}" fill-opacity="0.2"/>`;
    out += label(25, 126.5, words._("1 pt"), 9, suit.colour);
  }
  return out;
}

function tenFace(card: string, words: Words): string {
  const look = LOOKS.games.ten;
  const group = card[0] ?? "";
  const second = card[1] ?? "";
  const g = look.groups[group];
  if (!g) return unknown(card);
  const band = (corner: string): string =>
    `<rect x="6" y="6" width="88" height="29" rx="5" fill="${g.colour}"/>` + label(24, 20.5, corner, 27, g.on);
  if (group === "C") {
    return (
      blank(look.coin_tint) +
      `<circle cx="50" cy="63" r="36" fill="${P.gold}" stroke="${g.colour}" stroke-width="3.3"/>` +
      label(50, 63, second, 40, P.ink) +
      label(50, 120, words.ngettext("COIN", "COINS", Number(second)), 12, P.ink)
    );
  }
  if (second !== "#" && group !== "W") {
    return (
      blank(P.paper) + band(second) + sym(g.shape, 50, 21.7, 9, g.on) +
      `<text x="50" y="80" font-size="55" fill="${g.colour}" stroke="${g.outline}" stroke-width="1.5" text-anchor="middle" dominant-baseline="central" font-weight="700">${escape(second)}</text>` +
      sym(g.shape, 50, 123, 12, g.colour)
    );
  }
  const wildColour = look.groups["W"]?.colour ?? P.ink;
  let out = blank(g.tint) + pattern("stripes", g.stripe, 12) + band(second) + sym("star", 50, 21.7, 9, P.white);
  out += `<circle cx="50" cy="70" r="30" fill="${P.paper}" stroke="${g.colour}" stroke-width="2.5"/>`;
  out += second === "#" ? sym("star", 50, 70, 25, g.colour) + label(50, 72, "#", 20, P.white) : label(50, 70, second, 40, wildColour);
  const word = card.startsWith("W#") ? words.pgettext("card face", "SUPER WILD") : words.pgettext("card face", "WILD");
  out += label(50, 106, word, 11, P.ink);
  if (group === "W") {
    ["R", "B", "O", "G"].forEach((k, i) => {
      const other = look.groups[k];
      if (other) out += sym(other.shape, 20 + 20 * i, 123, 8.4, other.colour);
    });
  } else {
    out += sym(g.shape, 50, 123, 12, g.colour);
  }
  return out;
}

function unknown(card: string): string {
  return blank(P.paper) + label(50, 70, card, 20, P.ink);
}

/** A game whose cards the page draws (the others show a card as its id on a plain face). */
type CardGame = keyof Looks["games"];

function drawsCards(game: Game): game is CardGame {
  return Object.hasOwn(LOOKS.games, game);
}

/** The back of a face-down card of ``game``. */
function back(game: Game): string {
  if (!drawsCards(game)) return blank(P.soft_ink);
  const colour = LOOKS.games[game].back;
  const marks: Record<CardGame, string> = {
    grinch: pattern("checks", "#00000033", 12) + sym("heart", 50, 70, 28, "#009e73") + label(50, 70, "G", 22, P.white),
    gnome: sym("triangle", 50, 70, 26, "#c82828") + `<circle cx="50" cy="92" r="8" fill="${P.paper}"/>`,
    hearts: pattern("stripes", "#ffffff40", 10) + sym("heart", 50, 70, 20, P.paper),
    ten: pattern("dots", "#ffffff33", 12) + label(50, 70, "10", 40, P.gold),
  };
  return blank(colour) + marks[game];
}

/** The SVG of one card (``card`` null: its back), as a string for an ``<svg>`` element. */
export function cardSvg(game: Game, card: string | null, words: Words): string {
  let body: string;
  if (card === null) body = back(game);
  else if (game === "grinch") body = grinchFace(card, words);
  else if (game === "gnome") body = gnomeFace(card, words);
  else if (game === "hearts") body = heartsFace(card, words);
  else if (game === "ten") body = tenFace(card, words);
  else body = unknown(card);
  return `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">${body}</svg>`;
}

/** A playing card's name in words, "7 of hearts", "queen of spades" (its id if unknown). */
export function heartsName(card: string, words: Words): string {
  const rank = card.slice(0, -1);
  const suits: Record<string, string> = {
    C: words.pgettext("card suit", "clubs"),
    D: words.pgettext("card suit", "diamonds"),
    H: words.pgettext("card suit", "hearts"),
    S: words.pgettext("card suit", "spades"),
  };
  const ranks: Record<string, string> = {
    A: words.pgettext("card rank", "ace"),
    K: words.pgettext("card rank", "king"),
    Q: words.pgettext("card rank", "queen"),
    J: words.pgettext("card rank", "jack"),
  };
  const suit = suits[card.slice(-1)];
  if (!suit || !/^(?:[2-9]|10|[AKQJ])$/.test(rank)) return card;
  return words._("{rank} of {suit}", { rank: ranks[rank] ?? rank, suit });
}

/** A card's name for a screen reader and a tooltip ("3 Wreaths", "queen of spades", "Red 5"). */
export function cardName(game: Game, card: string | null, words: Words): string {
  if (card === null) return words._("face-down card");
  if (game === "grinch") {
    const suits: Record<string, string> = { W: "Wreaths", N: "Noise", O: "Ornaments", P: "Presents" };
    const name = LOOKS.games.grinch.names[card];
    const bonus = LOOKS.games.grinch.bonus[card];
    const base = `${card[1] ?? ""} ${words.pgettext("grinch", suits[card[0] ?? ""] ?? "")}`;
    const extra = bonus ? ` ${bonus.points} ${words.pgettext("grinch", suits[bonus.target] ?? "")}` : "";
    return (name ? `${words._(name)}: ` : "") + base + extra;
  }
  if (game === "hearts") return heartsName(card, words);
  if (game === "gnome") {
    const key = card.slice(0, 2);
    if (key === "HZ") return words.pgettext("card face", "HAZARD");
    if (key === "MU") return words.pgettext("card face", "WILD");
    return String(LOOKS.games.gnome.values[key]?.value ?? card);
  }
  return game === "ten" ? tenName(card, words) : card;
}

// Ten's card names, in the words of its hand screen (presentation/ten/text.py): the page
// takes their translations from the game's catalog (tools/page_assets.py), so they are
// looked up here by their English text, not extracted again into the page's own.
const TEN_NUMBERS: Record<string, string> = { R: "Red {number}", B: "Blue {number}", O: "Orange {number}", G: "Green {number}" };
const TEN_WILDS: Record<string, string> = { R: "Red wild", B: "Blue wild", O: "Orange wild", G: "Green wild" };
const TEN_NUMBER_WILD = "Wild {number}";
const TEN_SUPER_WILD = "Super wild";
const TEN_COINS: [string, string] = ["{n} coin", "{n} coins"];

/** A Ten card's name in words: "Red 5", "Red wild", "Wild 5", "Super wild", "2 coins". */
export function tenName(card: string, words: Words): string {
  const group = card[0] ?? "";
  const second = card[1] ?? "";
  if (group === "C") return words.ngettext(TEN_COINS[0], TEN_COINS[1], Number(second));
  if (group === "W") return second === "#" ? words._(TEN_SUPER_WILD) : words._(TEN_NUMBER_WILD, { number: second });
  const wild = TEN_WILDS[group];
  const number = TEN_NUMBERS[group];
  if (second === "#" && wild) return words._(wild);
  return number ? words._(number, { number: second }) : card;
}
