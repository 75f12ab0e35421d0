import { describe, expect, it } from "vitest";
import catalogs from "../src/generated/catalogs.json";
import { cdnBase } from "../src/discord";
import { Words, type Catalogs } from "../src/i18n";
import { launchFrom } from "../src/launch";
import { avatarPath, parseServerMessage } from "../src/protocol";
import { avatarUrl } from "../src/seats";
import { gameLine, playersLine } from "../src/start";

const all = catalogs as Catalogs;

describe("the start screen's words", () => {
  it("has a line for each of the four games, translated in every language", () => {
    for (const game of ["grinch", "gnome", "hearts", "ten"]) {
      const english = gameLine(game, new Words(all, "en"));
      expect(english).toBeTruthy();
      for (const language of ["ro", "et", "lt"]) expect(gameLine(game, new Words(all, language))).not.toBe(english);
    }
    expect(gameLine("fifth", new Words(all, "en"))).toBeNull();
  });

  it("counts the players as each game seats them", () => {
    const en = new Words(all, "en");
    expect(playersLine({ game: "grinch", min: 2, max: 6 }, en)).toBe("2–6 players");
    expect(playersLine({ game: "hearts", min: 2, max: 2 }, en)).toBe("2 players");
    expect(playersLine({ game: "ten", min: 1, max: 5 }, en)).toBe("1–5 players");
    expect(playersLine({ game: "ten", min: 1, max: 5 }, new Words(all, "ro"))).not.toBe("1–5 players");
  });

  it("reads the games and whether the bot may post from a channel without a game", () => {
    const frame = { type: "lobby", lobby: null, last_result: null, can_post: false,
      games: [{ game: "grinch", min: 2, max: 6 }, { game: "", min: 1 }, "junk"] };
    expect(parseServerMessage(JSON.stringify(frame))).toEqual({
      type: "lobby", lobby: null, last_result: null, can_post: false, games: [{ game: "grinch", min: 2, max: 6 }],
    });
  });
});

describe("avatars", () => {
  it("are loaded through the Activity's CDN mapping inside Discord, not at all outside", () => {
    expect(cdnBase(launchFrom("?frame_id=f&instance_id=i"))).toBe("/.proxy/cdn");
    expect(cdnBase(launchFrom("?user_id=5"))).toBeNull();
    expect(avatarUrl("/.proxy/cdn", "avatars/5/abc.png?size=64")).toBe("/.proxy/cdn/avatars/5/abc.png?size=64");
    expect(avatarUrl(null, "avatars/5/abc.png")).toBeNull();
    expect(avatarUrl("/.proxy/cdn", null)).toBeNull();
  });

  it("takes only a CDN path from the frame", () => {
    expect(avatarPath("guilds/1/users/2/avatars/a_0f.png?size=64")).toBe("guilds/1/users/2/avatars/a_0f.png?size=64");
    expect(avatarPath("embed/avatars/3.png")).toBe("embed/avatars/3.png");
    for (const bad of ["https://evil.example/x.png", "//evil.example/x", "../api/token", "avatars/<b>", 5, null, "a".repeat(201)]) {
      expect(avatarPath(bad)).toBeNull();
    }
  });
});
