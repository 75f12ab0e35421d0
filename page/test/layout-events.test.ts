import { describe, expect, it } from "vitest";
import { LAYOUT_MODE, LayoutKeeper, layoutOf, ORIENTATION, type Layout } from "../src/layout";

const nothing = { mode: null, orientation: null };

describe("the layout from Discord's events, else the window's size", () => {
  it("follows picture in picture and the grid whatever the size", () => {
    expect(layoutOf({ mode: LAYOUT_MODE.PIP, orientation: null }, 1280, 800)).toBe("pip");
    expect(layoutOf({ mode: LAYOUT_MODE.GRID, orientation: null }, 1280, 800)).toBe("compact");
    expect(layoutOf({ mode: LAYOUT_MODE.PIP, orientation: ORIENTATION.PORTRAIT }, 390, 844)).toBe("pip");
  });

  it("lays a focused or unsaid layout out by the size: short and on its side is compact", () => {
    expect(layoutOf(nothing, 390, 844)).toBe("full"); // a phone upright
    expect(layoutOf(nothing, 844, 390)).toBe("compact"); // on its side
    expect(layoutOf(nothing, 640, 360)).toBe("compact"); // a short window
    expect(layoutOf(nothing, 1280, 800)).toBe("full");
    expect(layoutOf({ mode: LAYOUT_MODE.FOCUSED, orientation: null }, 640, 360)).toBe("compact");
    expect(layoutOf({ mode: LAYOUT_MODE.FOCUSED, orientation: null }, 1280, 800)).toBe("full");
  });

  it("takes Discord's orientation for the window's", () => {
    expect(layoutOf({ mode: null, orientation: ORIENTATION.PORTRAIT }, 400, 380)).toBe("full");
    expect(layoutOf({ mode: null, orientation: ORIENTATION.LANDSCAPE }, 380, 400)).toBe("compact");
    expect(layoutOf({ mode: null, orientation: ORIENTATION.LANDSCAPE }, 844, 700)).toBe("full"); // tall enough
  });
});

describe("LayoutKeeper", () => {
  function keeper(size: { width: number; height: number }) {
    const root = { dataset: {} as Record<string, string> } as unknown as HTMLElement;
    const seen: Layout[] = [];
    const kept = new LayoutKeeper(root, () => size, (layout) => seen.push(layout));
    return { root, seen, kept };
  }

  it("marks the root and tells each change once, falling back to the size when Discord stops saying", () => {
    const size = { width: 1280, height: 800 };
    const { root, seen, kept } = keeper(size);
    kept.apply();
    expect(root.dataset["layout"]).toBe("full");
    kept.mode(LAYOUT_MODE.PIP);
    expect(root.dataset["layout"]).toBe("pip");
    kept.mode(LAYOUT_MODE.PIP); // said again: no change to tell
    kept.mode(LAYOUT_MODE.UNHANDLED); // the size decides again
    expect(root.dataset["layout"]).toBe("full");
    size.width = 640;
    size.height = 360;
    kept.apply(); // resized
    expect(seen).toEqual(["full", "pip", "full", "compact"]);
  });

  it("ignores values the SDK does not define", () => {
    const { root, kept } = keeper({ width: 390, height: 844 });
    kept.mode(7);
    kept.orientation(42);
    expect(root.dataset["layout"]).toBe("full");
    kept.orientation(ORIENTATION.LANDSCAPE);
    expect(root.dataset["layout"]).toBe("full"); // 844 tall: not short
  });
});
