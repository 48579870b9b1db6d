import { describe, expect, test } from "vitest";
import type { PageGeometry } from "@/lib/pdf/collect-pages";
import { mapStampRect } from "@/lib/pdf/map-stamp-rect";

const page = (rotate: PageGeometry["rotate"], cropBox: PageGeometry["cropBox"] = [0, 0, 600, 800]): PageGeometry => ({
  mediaBox: [0, 0, 600, 800],
  cropBox,
  rotate,
});
const rect = { x: 10, y: 20, width: 100, height: 50 };

describe("mapStampRect", () => {
  test.each([
    { rotate: 0, expected: [10, 20, 110, 70] },
    // shown 800 wide x 600 tall; shown x runs along user y, shown y runs right-to-left along user x
    { rotate: 90, expected: [530, 10, 580, 110] },
    { rotate: 180, expected: [490, 730, 590, 780] },
    { rotate: 270, expected: [20, 690, 70, 790] },
  ] as const)("/Rotate $rotate", ({ rotate, expected }) => {
    expect(mapStampRect(rect, page(rotate))).toEqual(expected);
  });

  test("CropBox origin offsets the rect", () => {
    expect(mapStampRect(rect, page(0, [100, 200, 500, 700]))).toEqual([110, 220, 210, 270]);
  });

  test.each([
    { name: "left of the page", r: { ...rect, x: -5 } },
    { name: "above the page", r: { ...rect, y: 760 } },
    { name: "wider than a rotated page is tall", r: { x: 0, y: 0, width: 10, height: 700 }, rotate: 90 as const },
    { name: "zero size", r: { ...rect, width: 0 } },
    { name: "NaN", r: { ...rect, x: Number.NaN } },
  ])("$name → STAMP_OUT_OF_PAGE", ({ r, rotate = 0 as PageGeometry["rotate"] }) => {
    expect(() => mapStampRect(r, page(rotate))).toThrow(expect.objectContaining({ code: "STAMP_OUT_OF_PAGE" }));
  });
});
