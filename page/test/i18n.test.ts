import { describe, expect, it } from "vitest";
import catalogs from "../src/generated/catalogs.json";
import { chooseLanguage, format, knownPlural, Words, type Catalogs } from "../src/i18n";

const all = catalogs as Catalogs;

describe("catalogs", () => {
  it("has the four languages, each with a plural rule the page knows", () => {
    expect(Object.keys(all).sort()).toEqual(["en", "et", "lt", "ro"]);
    for (const catalog of Object.values(all)) expect(knownPlural(catalog.plural_forms)).toBe(true);
  });

  it("translates the page's words in every language but English", () => {
    for (const language of ["ro", "lt", "et"]) {
      const words = new Words(all, language);
      expect(words._("Your turn.")).not.toBe("Your turn.");
    }
    expect(new Words(all, "en")._("Your turn.")).toBe("Your turn.");
  });

  it("carries the card faces' words from the games' catalogs", () => {
    expect(new Words(all, "ro").pgettext("card face", "WILD")).toBe("JOKER");
  });
});

describe("Words", () => {
  const fake: Catalogs = {
    ro: {
      plural_forms: "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",
      messages: { "{n} card": ["{n} carte", "{n} cărți", "{n} de cărți"], Hello: "Salut {name}", "ctx\u0004Run": "Chintă" },
    },
    lt: {
      plural_forms: "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
      messages: { "{n} card": ["{n} korta", "{n} kortos", "{n} kortų"] },
    },
  };

  it("chooses the plural form by the language's rule", () => {
    const ro = new Words(fake, "ro");
    expect([1, 2, 19, 20, 101, 0].map((n) => ro.ngettext("{n} card", "{n} cards", n))).toEqual([
      "1 carte", "2 cărți", "19 cărți", "20 de cărți", "101 cărți", "0 cărți",
    ]);
    const lt = new Words(fake, "lt");
    expect([1, 11, 21, 5, 12].map((n) => lt.ngettext("{n} card", "{n} cards", n))).toEqual([
      "1 korta", "11 kortų", "21 korta", "5 kortos", "12 kortų",
    ]);
  });

  it("falls back to English for a missing message or language", () => {
    expect(new Words(fake, "ro")._("Bye")).toBe("Bye");
    const xx = new Words(fake, "xx");
    expect(xx.language).toBe("en");
    expect(xx.ngettext("{n} card", "{n} cards", 1)).toBe("1 card");
    expect(xx.ngettext("{n} card", "{n} cards", 3)).toBe("3 cards");
  });

  it("fills placeholders and keeps unknown ones", () => {
    expect(new Words(fake, "ro")._("Hello", { name: "Ana" })).toBe("Salut Ana");
    expect(format("{a} {b}", { a: 1 })).toBe("1 {b}");
    expect(new Words(fake, "ro").pgettext("ctx", "Run")).toBe("Chintă");
    expect(new Words(fake, "ro").pgettext("other", "Run")).toBe("Run");
  });

  it("picks the first known language of the candidates", () => {
    expect(chooseLanguage(fake, [null, "ro-RO", "lt"])).toBe("ro");
    expect(chooseLanguage(fake, ["de", "lt_LT"])).toBe("lt");
    expect(chooseLanguage(fake, ["de"])).toBe("en");
  });
});
