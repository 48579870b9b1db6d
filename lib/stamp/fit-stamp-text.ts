import type { StampLine, StampLineStyle } from "@/lib/stamp/build-stamp-content";
import type { StampFace } from "@/lib/stamp/stamp-faces";

export interface StampFonts {
  regular: StampFace;
  bold: StampFace;
}

export interface FittedStampText {
  fontSize: number;
  lineHeight: number;
  /** Distance from a row's top to its baseline; DejaVu's ascender with accented capitals is ~0.93 em. */
  ascent: number;
  rows: StampLine[];
  /** True when even the smallest size could not hold everything and the last row ends in "…". */
  truncated: boolean;
}

const LINE_HEIGHT = 1.2;
const ASCENT = 0.93;
const DESCENT = 0.24;
const STEP = 0.25;
// More than the largest box holds at the smallest size; longer input is cut before measuring.
const MAX_LINE_CHARS = 400;

export function fontFor(fonts: StampFonts, style: StampLineStyle): StampFace {
  return style === "body" ? fonts.regular : fonts.bold;
}

/**
 * Wraps the stamp lines into the text box at the largest size between max and min that fits; at
 * the minimum it drops what does not fit, so the text never leaves the box.
 */
export function fitStampText(
  lines: StampLine[],
  fonts: StampFonts,
  box: { width: number; height: number },
  sizes: { max: number; min: number },
): FittedStampText {
  const size = sizes.min;
  const measure = widthMeter();
  const rows = wrapAll(lines, fonts, size, box.width, measure);
  // checking the smallest size first spares a dozen useless passes over oversized input
  if (blockHeight(rows.length, size) <= box.height) {
    for (let larger = sizes.max; larger > size + 1e-9; larger -= STEP) {
      const attempt = wrapAll(lines, fonts, larger, box.width, measure);
      if (blockHeight(attempt.length, larger) <= box.height) return fitted(larger, attempt, false);
    }
    return fitted(size, rows, false);
  }
  const capacity = Math.max(1, Math.floor((box.height - (ASCENT + DESCENT) * size) / (LINE_HEIGHT * size)) + 1);
  const kept = rows.slice(0, capacity);
  const last = kept[kept.length - 1];
  kept[kept.length - 1] = { ...last, text: withEllipsis(last.text, fontFor(fonts, last.style), size, box.width, measure) };
  return fitted(size, kept, true);
}

export function blockHeight(rowCount: number, size: number): number {
  return rowCount === 0 ? 0 : (rowCount - 1) * LINE_HEIGHT * size + (ASCENT + DESCENT) * size;
}

function fitted(size: number, rows: StampLine[], truncated: boolean): FittedStampText {
  return { fontSize: size, lineHeight: LINE_HEIGHT * size, ascent: ASCENT * size, rows, truncated };
}

/** Text width at `size`: linear in size, so the faces measure once at size 1 (pdf-lib's own arithmetic). */
type WidthMeter = (font: StampFace, text: string, size: number) => number;

function widthMeter(): WidthMeter {
  return (font, text, size) => font.widthAtSizeOne(text) * size;
}

function wrapAll(lines: StampLine[], fonts: StampFonts, size: number, width: number, measure: WidthMeter): StampLine[] {
  return lines.flatMap((line) =>
    wrapLine(capped(line.text), fontFor(fonts, line.style), size, width, measure).map((text) => ({ text, style: line.style })),
  );
}

function capped(text: string): string {
  const chars = Array.from(text);
  return chars.length > MAX_LINE_CHARS ? `${chars.slice(0, MAX_LINE_CHARS).join("")}…` : text;
}

function wrapLine(text: string, font: StampFace, size: number, width: number, measure: WidthMeter): string[] {
  const fits = (s: string) => measure(font, s, size) <= width;
  const rows: string[] = [];
  let current = "";
  for (const word of text.split(" ").filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current) rows.push(current);
    // a word wider than the box (an e-mail, a token) is broken between characters
    let rest = Array.from(word);
    while (rest.length > 1 && !fits(rest.join(""))) {
      const cut = longestFittingPrefix(rest, fits);
      rows.push(rest.slice(0, cut).join(""));
      rest = rest.slice(cut);
    }
    current = rest.join("");
  }
  if (current) rows.push(current);
  return rows;
}

/** Binary search: measuring is a fontkit layout, too slow to repeat per character on long input. */
function longestFittingPrefix(chars: string[], fits: (s: string) => boolean): number {
  let low = 1; // at least one character per row, even if it alone is too wide
  let high = chars.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(chars.slice(0, mid).join(""))) low = mid;
    else high = mid - 1;
  }
  return low;
}

function withEllipsis(text: string, font: StampFace, size: number, width: number, measure: WidthMeter): string {
  const chars = Array.from(text);
  while (chars.length > 0 && measure(font, `${chars.join("")}…`, size) > width) chars.pop();
  return `${chars.join("").trimEnd()}…`;
}
