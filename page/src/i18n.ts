// The page's words in the viewer's language, from the project's gettext catalogs
// (exported to JSON at build time by tools/page_assets.py).

/** One language's messages: a msgid (or "context\u0004msgid") to its text, or its plural forms. */
export interface Catalog {
  plural_forms: string;
  messages: Record<string, string | string[]>;
  /** The language's own name for itself ("Română"), for the page's language menu. */
  name?: string;
  /** Each game's title as the bot shows it in this language. */
  titles?: Record<string, string>;
}

export type Catalogs = Record<string, Catalog>;

type Values = Record<string, string | number>;

// The plural rule of each catalog's Plural-Forms header (the four languages' headers).
const PLURALS: Record<string, (n: number) => number> = {
  "nplurals=2; plural=(n != 1);": (n) => (n !== 1 ? 1 : 0),
  "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);": (n) =>
    n === 1 ? 0 : n === 0 || (n % 100 > 0 && n % 100 < 20) ? 1 : 2,
  "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);":
    (n) => (n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2),
};

export function knownPlural(header: string): boolean {
  return header in PLURALS;
}

export function format(text: string, values: Values = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** Words in one language; English (the msgids) where the catalog has no translation. */
export class Words {
  readonly language: string;
  private readonly catalog: Catalog | undefined;

  constructor(catalogs: Catalogs, language: string) {
    this.catalog = catalogs[language];
    this.language = this.catalog ? language : "en";
  }

  title(game: string): string {
    return this.catalog?.titles?.[game] ?? game;
  }

  _(message: string, values?: Values): string {
    const found = this.catalog?.messages[message];
    return format(typeof found === "string" && found ? found : message, values);
  }

  pgettext(context: string, message: string, values?: Values): string {
    const found = this.catalog?.messages[`${context}\u0004${message}`];
    return format(typeof found === "string" && found ? found : message, values);
  }

  ngettext(singular: string, plural: string, n: number, values?: Values): string {
    const all = { n, ...values };
    const forms = this.catalog?.messages[singular];
    const rule = this.catalog ? PLURALS[this.catalog.plural_forms] : undefined;
    if (Array.isArray(forms) && rule) {
      const chosen = forms[rule(n)];
      if (chosen) return format(chosen, all);
    }
    return format(n === 1 ? singular : plural, all);
  }
}

/** The language to show: the first of ``wanted`` (the viewer's pick, the backend's choice for
 * the viewer, the Discord client's locale, the browser's) that the page has. */
export function chooseLanguage(
  catalogs: Catalogs,
  wanted: readonly (string | null | undefined)[],
): string {
  for (const candidate of wanted) {
    if (!candidate) continue;
    const base = candidate.toLowerCase().split(/[-_]/)[0] ?? "";
    if (base === "en" || base in catalogs) return base;
  }
  return "en";
}
