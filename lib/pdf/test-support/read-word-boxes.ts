import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A word as poppler lays it out, in points with the origin at the page's top-left (72 dpi pixels). */
export type WordBox = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** Test-only: `pdftotext -bbox` of one page (1-based); a word's box height is its font's ascent to descent. */
export function readWordBoxes(pdf: Uint8Array, pageNumber: number): WordBox[] {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-words-"));
  const input = path.join(dir, "in.pdf");
  writeFileSync(input, pdf);
  const html = execFileSync("pdftotext", ["-bbox", "-enc", "UTF-8", "-f", String(pageNumber), "-l", String(pageNumber), input, "-"], { encoding: "utf8" });
  const words: WordBox[] = [];
  for (const m of html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    words.push({ xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4], text: m[5] });
  }
  return words;
}
