import { describe, expect, it } from "vitest";
import { layoutStampGrid, STAMP_PAGE } from "./layout-stamp-grid";

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("layoutStampGrid", () => {
  it("places stamps in reading order without overlaps, inside the page", () => {
    const items = Array.from({ length: 16 }, (_, i) => ({ key: String(i), size: 1, orientation: "horizontal" as const }));
    const grid = layoutStampGrid(items)!;
    const rects = [...grid.values()];
    expect(rects).toHaveLength(16);
    expect(grid.get("0")!.x).toBeLessThan(grid.get("1")!.x);
    expect(grid.get("0")!.y).toBeGreaterThan(grid.get("2")!.y);
    for (const r of rects) {
      expect(Number.isInteger(r.x) && Number.isInteger(r.y)).toBe(true);
      expect(r.x).toBeGreaterThanOrEqual(36);
      expect(r.y).toBeGreaterThanOrEqual(36);
      expect(r.x + r.width).toBeLessThanOrEqual(STAMP_PAGE.width - 36 + 0.01);
      expect(r.y + r.height).toBeLessThanOrEqual(STAMP_PAGE.height - 36 + 0.01);
    }
    for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) expect(overlap(rects[i], rects[j])).toBe(false);
  });

  it("mixes sizes and orientations and keeps fixed stamps where they are", () => {
    const grid = layoutStampGrid([
      { key: "a", size: 1, orientation: "horizontal", fixed: { x: 36, y: 500 } },
      { key: "b", size: 2, orientation: "horizontal" },
      { key: "c", size: 1, orientation: "vertical" },
    ])!;
    expect(grid.get("a")).toMatchObject({ x: 36, y: 500 });
    const [a, b, c] = ["a", "b", "c"].map((k) => grid.get(k)!);
    expect(overlap(a, b) || overlap(a, c) || overlap(b, c)).toBe(false);
  });

  it("answers null when the stamps do not fit on one page", () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ key: String(i), size: 2, orientation: "horizontal" as const }));
    expect(layoutStampGrid(items)).toBeNull();
  });
});
