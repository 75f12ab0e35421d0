import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import catalogsData from "../src/generated/catalogs.json";
import { Link } from "../src/connection";
import { chooseLanguage, type Catalogs } from "../src/i18n";
import { keepLanguage, keptLanguage, languageNames, type Kept } from "../src/language";
import { FakeSocket } from "./fakesocket";

const catalogs = catalogsData as Catalogs;

class Memory implements Kept {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

const refusing: Kept = {
  getItem: () => {
    throw new Error("SecurityError");
  },
  setItem: () => {
    throw new Error("SecurityError");
  },
};

describe("the language menu's languages", () => {
  it("lists the bot's four languages, each by its own name", () => {
    expect(Object.fromEntries(languageNames(catalogs))).toEqual({ en: "English", ro: "Română", lt: "Lietuvių", et: "Eesti" });
  });

  it("has the menu's label in every language but English", () => {
    for (const language of ["ro", "lt", "et"]) expect(catalogs[language]?.messages["Language"]).toBeTruthy();
  });
});

describe("the viewer's pick", () => {
  it("is kept for the next visit, and only if it is one of the bot's languages", () => {
    const storage = new Memory();
    expect(keptLanguage(storage, catalogs)).toBeNull();
    keepLanguage(storage, "et");
    expect(keptLanguage(storage, catalogs)).toBe("et");
    keepLanguage(storage, "de");
    expect(keptLanguage(storage, catalogs)).toBeNull();
  });

  it("lasts the page's life where the frame refuses storage", () => {
    expect(() => keepLanguage(refusing, "ro")).not.toThrow();
    expect(keptLanguage(refusing, catalogs)).toBeNull();
    expect(keptLanguage(null, catalogs)).toBeNull();
  });

  it("wins over the Discord client's locale, which wins over the browser's", () => {
    expect(chooseLanguage(catalogs, ["et", "ro", "en-US"])).toBe("et");
    expect(chooseLanguage(catalogs, [null, "ro", "en-US"])).toBe("ro");
    expect(chooseLanguage(catalogs, [null, "ja", "lt-LT"])).toBe("lt");
  });
});

describe("the hello", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.stubGlobal("WebSocket", FakeSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("carries the client's locale and the viewer's pick, and a pick goes to the open socket", async () => {
    const link = new Link({
      url: "ws://127.0.0.1/api/live",
      hello: async () => ({ session: "s1", instance: "i-1", channel: null, locale: "ro", language: "et" }),
      renew: async () => "s2",
      onMessage: () => undefined,
      onState: () => undefined,
    });
    await link.open();
    const socket = FakeSocket.made.at(-1)!;
    socket.opened();
    expect(link.send({ type: "language", language: "lt" })).toBe("sent");
    expect(socket.sent).toEqual([
      { type: "hello", session: "s1", instance: "i-1", locale: "ro", language: "et" },
      { type: "language", language: "lt" },
    ]);
  });

  it("leaves out what is not known", async () => {
    const link = new Link({
      url: "ws://127.0.0.1/api/live",
      hello: async () => ({ session: "s1", instance: "i-1", channel: null, locale: null, language: null }),
      renew: async () => "s2",
      onMessage: () => undefined,
      onState: () => undefined,
    });
    await link.open();
    FakeSocket.made.at(-1)!.opened();
    expect(FakeSocket.made.at(-1)!.sent).toEqual([{ type: "hello", session: "s1", instance: "i-1" }]);
  });
});
