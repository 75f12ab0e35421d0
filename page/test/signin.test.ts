import { describe, expect, it } from "vitest";
import { retryAfter } from "../src/discord";

describe("a sign-in the backend asked to wait", () => {
  it("is tried again after Retry-After when the answer was a limit", () => {
    expect(retryAfter(429, "2")).toBe(2);
    expect(retryAfter(503, "0.5")).toBe(0.5);
  });

  it("is not tried again for other answers, or waits that cannot be right", () => {
    expect(retryAfter(401, "2")).toBeNull();
    expect(retryAfter(502, "2")).toBeNull();
    expect(retryAfter(429, null)).toBeNull();
    expect(retryAfter(429, "soon")).toBeNull();
    expect(retryAfter(429, "-1")).toBeNull();
    expect(retryAfter(429, "3600")).toBeNull();
  });
});
