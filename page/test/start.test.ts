import { describe, expect, it } from "vitest";
import { cdnBase } from "../src/discord";
import { launchFrom } from "../src/launch";
import { avatarPath, parseServerMessage } from "../src/protocol";
import { avatarUrl } from "../src/seats";

describe("a channel without a game", () => {
  it("reads the games and whether the bot may post", () => {
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
