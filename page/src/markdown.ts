// The bot's texts are written for Discord (its Markdown): on the page **bold** is bold and
// every other mark (italics, underline, strike-through, code, spoilers) is left out, so no
// asterisk or underscore of the chat's shows.

import { h } from "./dom";

/** One run of text, bold or not. */
export interface Span {
  text: string;
  bold: boolean;
}

// Discord's marks besides bold, dropped where they wrap a word: __u__, *i*, _i_, ~~s~~, `c`, ||x||.
const OTHER_MARKS = /(__|~~|\|\||`)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])[*_](?=[^\s*_])(.+?)(?<=[^\s*_])[*_](?![\w*])/g;

function plain(text: string): string {
  let before = "";
  let now = text;
  while (now !== before) {
    before = now;
    now = now.replace(OTHER_MARKS, (_whole, _mark: string | undefined, inner?: string, single?: string) => inner ?? single ?? "");
  }
  return now.replace(/\\([*_~`|\\])/g, "$1");
}

/** ``text`` as runs: what **…** wraps is bold, the other marks are dropped. */
export function spans(text: string): Span[] {
  const found: Span[] = [];
  const add = (part: string, bold: boolean): void => {
    const clean = plain(part);
    if (!clean) return;
    const previous = found[found.length - 1];
    if (previous && previous.bold === bold) previous.text += clean;
    else found.push({ text: clean, bold });
  };
  const pieces = text.split(/\*\*(?=\S)(.+?)(?<=\S)\*\*/s);
  pieces.forEach((piece, i) => add(piece, i % 2 === 1));
  return found;
}

/** ``text`` without any of its marks (an attribute, a title: no bold there). */
export function stripped(text: string): string {
  return spans(text).map((s) => s.text).join("");
}

/** An element holding ``text`` with its bold runs in ``<strong>`` (never as markup). */
export function rich<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>, text: string): HTMLElementTagNameMap[K] {
  return h(tag, attrs, ...spans(text).map((s) => (s.bold ? h("strong", {}, s.text) : s.text)));
}
