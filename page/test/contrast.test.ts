import { describe, expect, it } from "vitest";
import { contrast } from "../src/contrast";
import css from "../src/style.css?raw";

// The colours the stylesheet names, read from its :root.
const colours = Object.fromEntries([...css.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1], m[2]]));

function colour(name: string): string {
  const found = colours[name];
  if (!found) throw new Error(`style.css has no --${name}`);
  return found;
}

describe("contrast of the table's text", () => {
  it("computes WCAG ratios", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#777777")).toBe(1);
    expect(() => contrast("red", "#000000")).toThrow();
  });

  // Each pair of text and the background it is written on: the seats, the turn line, the
  // timer's pill, the buttons, the notices.
  const pairs: [string, string][] = [
    ["paper", "felt"], ["paper", "felt-light"], ["highlight", "felt"], ["highlight", "felt-light"],
    ["ink", "highlight"], ["ink", "paper"], ["ink", "gold"],
  ];
  it.each(pairs)("%s on %s is at least 4.5:1", (text, ground) => {
    expect(contrast(colour(text), colour(ground))).toBeGreaterThanOrEqual(4.5);
  });
});
