import { layoutProcessStamp, type StampOrientation } from "@/lib/stamp/layout-stamp";

/** The page appended to every file for the signers' stamps (decision 13): A4 portrait, in points. */
export const STAMP_PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = 36;
const GAP = 10;

export type { StampOrientation };
export type StampBox = { width: number; height: number };
export type GridItem = { key: string; size: number; orientation: StampOrientation; fixed?: { x: number; y: number } };
export type GridPlacement = { x: number; y: number; width: number; height: number };

/**
 * Size of a process stamp on the grid: exactly the drawn stamp (layoutProcessStamp), so it is
 * drawn at the listed x/y without scaling. Size 2 doubles size 1; vertical swaps the sides.
 */
export function stampBox(size: number, orientation: StampOrientation): StampBox {
  const { width, height } = layoutProcessStamp(size === 2 ? 2 : 1, orientation);
  return { width, height };
}

/**
 * Places the stamps of one file on the appended page, in signer order, top-left first. Items with
 * `fixed` (signers who already signed) keep their place; the others take the first free spot.
 * Returns null when they do not fit on one page.
 */
export function layoutStampGrid(items: GridItem[], page: StampBox = STAMP_PAGE): Map<string, GridPlacement> | null {
  const placed = new Map<string, GridPlacement>();
  for (const item of items) {
    if (item.fixed) placed.set(item.key, { ...wholePoints(item.fixed), ...stampBox(item.size, item.orientation) });
  }
  for (const item of items) {
    if (item.fixed) continue;
    const box = stampBox(item.size, item.orientation);
    const spot = firstFreeSpot(box, [...placed.values()], page);
    if (!spot) return null;
    placed.set(item.key, { ...spot, ...box });
  }
  return placed;
}

function firstFreeSpot(box: StampBox, taken: GridPlacement[], page: StampBox): { x: number; y: number } | null {
  const top = page.height - MARGIN;
  const xs = [MARGIN, ...taken.map((r) => r.x + r.width + GAP)];
  const ys = [top - box.height, ...taken.map((r) => r.y - GAP - box.height)];
  const candidates = ys.flatMap((y) => xs.map((x) => ({ x, y }))).sort((a, b) => b.y - a.y || a.x - b.x);
  for (const c of candidates) {
    if (c.x + box.width > page.width - MARGIN + 0.01 || c.y < MARGIN - 0.01 || c.y + box.height > top + 0.01) continue;
    const overlaps = taken.some(
      (r) => c.x < r.x + r.width + GAP && r.x < c.x + box.width + GAP && c.y < r.y + r.height + GAP && r.y < c.y + box.height + GAP,
    );
    if (!overlaps) return { x: Math.floor(c.x), y: Math.floor(c.y) };
  }
  return null;
}


/**
 * Positions are integers on the wire (the spec types x and y as integers); the page's A4 height is
 * fractional, so free spots are floored, and slots stored with decimals before are read floored too.
 */
export function wholePoints(position: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.floor(position.x), y: Math.floor(position.y) };
}
