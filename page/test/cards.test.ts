import { describe, expect, it } from "vitest";
import { cardName, cardSvg, escape } from "../src/cards";
import { Words } from "../src/i18n";
import { LOOKS } from "../src/looks";
import { symbol } from "../src/symbols";

const en = new Words({}, "en");

describe("cards", () => {
  it("draws each suit with its own symbol, not its colour alone", () => {
    const club = cardSvg("hearts", "5C", en);
    const spade = cardSvg("hearts", "5S", en);
    expect(club).toContain(LOOKS.games.hearts.suits["C"]!.colour);
    expect(club).toContain(symbol("club", 62, 70, 24, LOOKS.games.hearts.suits["C"]!.colour));
    expect(spade).toContain(symbol("spade", 62, 70, 24, LOOKS.games.hearts.suits["S"]!.colour));
    expect(cardSvg("ten", "B3a", en)).toContain(symbol("square", 50, 123, 12, LOOKS.games.ten.groups["B"]!.colour));
    expect(cardSvg("grinch", "W3a", en)).toContain(LOOKS.games.grinch.suits["W"]!.tint);
  });

  it("marks a bonus card and names the named cards", () => {
    expect(cardSvg("grinch", "N1a", en)).toContain("Sing! Sing! Sing!");
    expect(cardSvg("grinch", "W1a", en)).toContain("+10");
    expect(cardSvg("grinch", "W3a", en)).not.toContain("+10");
    expect(cardSvg("hearts", "QS", en)).toContain(">13<");
    expect(cardSvg("hearts", "6H", en)).toContain("1 pt");
  });

  it("draws every card of every game without falling back to its id", () => {
    const ids: [Parameters<typeof cardSvg>[0], string][] = [
      ["gnome", "P6-03"], ["gnome", "N2-01"], ["gnome", "HZ-01"], ["gnome", "MU-02"],
      ["ten", "R9a"], ["ten", "W#a"], ["ten", "G#a"], ["ten", "C3a"], ["ten", "W5a"],
    ];
    for (const [game, card] of ids) expect(cardSvg(game, card, en)).not.toContain(`>${card}<`);
    expect(cardSvg("gnome", "ZZ-01", en)).toContain(">ZZ-01<");
  });

  it("draws no English initial on a face: the coin and the star are the marks", () => {
    expect(cardSvg("ten", "C3a", en)).toContain(">COINS<");
    expect(cardSvg("ten", "C3a", en)).not.toMatch(/>C\s/);
    expect(cardSvg("gnome", "MU-02", en)).not.toContain(">M<");
  });

  it("draws a back for a face-down card", () => {
    expect(cardSvg("ten", null, en)).toContain(LOOKS.games.ten.back);
  });

  it("escapes text and names cards in words", () => {
    expect(escape(`<b a="x">&'`)).toBe("&#60;b a=&#34;x&#34;&#62;&#38;&#39;");
    expect(cardName("hearts", "10H", en)).toBe("10 of hearts");
    expect(cardName("hearts", "QS", en)).toBe("queen of spades");
    expect(cardName("grinch", "O2a", en)).toBe("Cindy-Lou Who: 2 Ornaments +5 Presents");
    expect(cardName("ten", "C2a", en)).toBe("2 coins");
    expect(cardName("ten", "R5a", en)).toBe("Red 5");
    expect(cardName("ten", "G#", en)).toBe("Green wild");
    expect(cardName("ten", "W7", en)).toBe("Wild 7");
    expect(cardName("ten", "W#", en)).toBe("Super wild");
    expect(cardName("gnome", "N3-01", en)).toBe("-3");
    expect(cardName("gnome", null, en)).toBe("face-down card");
  });

  it("names a playing card in the viewer's language, the words in that language's order", () => {
    const lt = new Words({
      lt: {
        plural_forms: "nplurals=2; plural=(n != 1);",
        messages: { "{rank} of {suit}": "{suit} {rank}", "card suit\u0004hearts": "širdžių", "card rank\u0004ace": "tūzas" },
      },
    }, "lt");
    expect(cardName("hearts", "AH", lt)).toBe("širdžių tūzas");
    expect(cardName("hearts", "7H", lt)).toBe("širdžių 7");
    expect(cardName("hearts", "ZZ", lt)).toBe("ZZ"); // not a card: its id
  });
});
