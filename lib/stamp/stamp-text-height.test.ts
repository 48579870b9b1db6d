import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { StampData } from "@/lib/stamp/build-stamp-content";
import { drawStamp } from "@/lib/stamp/draw-stamp";
import type { StampSize } from "@/lib/stamp/layout-stamp";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { renderStamp } from "@/lib/stamp/test-support/render-stamp";
import { readWordBoxes } from "@/lib/pdf/test-support/read-word-boxes";
import { fixturePath } from "@/test/fixtures-dir";

const portrait = readStampImage(readFileSync(fixturePath("images/portrait-413x531.jpg")), "portrait-413x531.jpg");
const data: StampData = {
  names: "María de los Ángeles",
  lastNames: "Fernández de Córdoba Núñez",
  personIdType: "DNI",
  personId: "45493496",
  nationality: "PER",
  signType: "agente",
  txToken: "AbCdEfGhIj0123456789",
  signedAt: new Date("2026-11-23T00:46:04Z"),
  environment: "quality",
  verifyUrl: "https://firma.example.com/verify",
};
// 6 pt at 100% zoom (decision 13); pdftotext's word box spans the font's ascent to descent, ~1.17 em
const MIN_POINTS = 6;
const BOX_PER_EM = 1.1;

/** Height of the ink of each text row, in pixels of a 72 dpi render, inside the columns [left, right). */
function inkRowHeights(png: { width: number; height: number; data: Buffer }, left: number, right: number): number[] {
  const dark = (y: number) => {
    for (let x = left; x < right; x++) {
      const i = (y * png.width + x) * 4;
      if (png.data[i] + png.data[i + 1] + png.data[i + 2] < 300) return true;
    }
    return false;
  };
  const heights: number[] = [];
  let start = -1;
  for (let y = 0; y <= png.height; y++) {
    const inked = y < png.height && dark(y);
    if (inked && start < 0) start = y;
    if (!inked && start >= 0) {
      heights.push(y - start);
      start = -1;
    }
  }
  return heights;
}

describe("stamp text stays readable at 100% zoom (72 dpi render)", () => {
  const cases: [string, StampSize, { image: boolean; qr: boolean; orientation?: "horizontal" | "vertical" }][] = [
    ["stamp API, size 1, image and QR", 1, { image: true, qr: true }],
    ["stamp API, size 2, image and QR", 2, { image: true, qr: true }],
    ["stamp API, size 1, no QR", 1, { image: true, qr: false }],
    ["stamp API, size 2, no QR", 2, { image: true, qr: false }],
    ["stamp API, size 1, QR only", 1, { image: false, qr: true }],
    ["stamp API, size 2, QR only", 2, { image: false, qr: true }],
    ["process, size 1, horizontal", 1, { image: false, qr: false, orientation: "horizontal" }],
    ["process, size 2, horizontal", 2, { image: false, qr: false, orientation: "horizontal" }],
    ["process, size 1, vertical", 1, { image: false, qr: false, orientation: "vertical" }],
    ["process, size 2, vertical", 2, { image: false, qr: false, orientation: "vertical" }],
  ];
  it.each(cases)("%s: every word at least 6 pt, names legible", async (_name, size, shape) => {
    const stamp = await drawStamp({ data, size, image: shape.image ? portrait : undefined, qr: shape.qr ? { text: "https://firma.example.com/verify/x" } : null, orientation: shape.orientation });
    const rendered = await renderStamp(stamp, 72, 0);
    const words = readWordBoxes(rendered.pdf, 1);
    expect(words.map((w) => w.text).join(" ")).toContain("Fernández");
    for (const word of words) expect(word.yMax - word.yMin, word.text).toBeGreaterThanOrEqual(MIN_POINTS * size * BOX_PER_EM);
    // in pixels: each text row's ink (capitals, accents, descenders) is at least the 6 pt font's cap height
    const textLeft = Math.floor(Math.min(...words.map((w) => w.xMin)));
    const rows = inkRowHeights(rendered.png, textLeft, rendered.png.width).filter((h) => h > 1);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...rows)).toBeGreaterThanOrEqual(Math.round(MIN_POINTS * size * 0.9));
  });
});
