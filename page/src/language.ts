// The viewer's language on the page: a small menu of the bot's languages (each catalog's own
// name for itself), above the table and never redrawn with it, so a frame arriving while it
// is open does not close it. A pick is kept in the browser's storage, so a reload or a new
// socket keeps it, and goes to the backend, whose frames then come in that language.

import { h } from "./dom";
import type { Catalogs, Words } from "./i18n";

const KEY = "card-table.language";

/** The part of the browser's storage the page uses (absent or refusing in some frames). */
export interface Kept {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The bot's languages as [code, own name], in the order the catalogs list them. */
export function languageNames(catalogs: Catalogs): [string, string][] {
  return Object.entries(catalogs).map(([code, catalog]) => [code, catalog.name ?? code]);
}

/** The language picked on an earlier visit, if it is still one of the bot's. */
export function keptLanguage(storage: Kept | null, catalogs: Catalogs): string | null {
  try {
    const kept = storage?.getItem(KEY) ?? null;
    return kept !== null && kept in catalogs ? kept : null;
  } catch {
    return null; // storage refused (a sandboxed frame): nothing was kept
  }
}

export function keepLanguage(storage: Kept | null, language: string): void {
  try {
    storage?.setItem(KEY, language);
  } catch {
    // storage refused: the pick lasts as long as the page
  }
}

/** The menu: a disclosure (its summary names the language shown) of one button per language;
 * ``pick`` is called with the one pressed. */
export function languageMenu(catalogs: Catalogs, words: Words, pick: (language: string) => void): HTMLElement {
  const summary = h("summary", { class: "move" });
  const menu = h("details", { class: "language" }, summary);
  const list = h("div", { class: "moves" });
  for (const [code, name] of languageNames(catalogs)) {
    const button = h("button", { class: "move", lang: code, "data-language": code }, name);
    button.addEventListener("click", () => {
      menu.open = false;
      pick(code);
    });
    list.append(button);
  }
  menu.append(list);
  showLanguage(menu, words);
  return menu;
}

/** The menu told the language now shown: its name on the summary, its button pressed. */
export function showLanguage(menu: HTMLElement, words: Words): void {
  const summary = menu.querySelector("summary");
  const shown = menu.querySelector(`[data-language="${words.language}"]`)?.textContent ?? words.language;
  const label = words._("Language");
  if (summary) {
    summary.textContent = "🌐 " + shown;
    summary.setAttribute("aria-label", label + ": " + shown);
  }
  for (const button of menu.querySelectorAll<HTMLElement>("[data-language]")) {
    button.setAttribute("aria-pressed", String(button.dataset["language"] === words.language));
  }
}
