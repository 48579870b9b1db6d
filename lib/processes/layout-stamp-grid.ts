/** The page appended to every file for the signers' stamps (decision 13): A4 portrait, in points. */
export const STAMP_PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = 36;
const GAP = 10;

export type StampOrientation = "horizontal" | "vertical";
export type StampBox = { width: number; height: number };
export type GridItem = { key: string; size: number; orientation: StampOrientation; fixed?: { x: number; y: number } };
export type GridPlacement = { x: number; y: number; width: number; height: number };

/** Size of a stamp on the grid. Size 2 doubles size 1; vertical swaps the sides. */
export function stampBox(size: number, orientation: StampOrientation): StampBox {
  const base = { width: 220 * size, height: 80 * size };
  return orientation === "vertical" ? { width: base.height, height: base.width } : base;
}

/**
 * Places the stamps of one file on the appended page, in signer order, top-left first. Items with
 * `fixed` (signers who already signed) keep their place; the others take the first free spot.
 * Returns null when they do not fit on one page.
 */
export function layoutStampGrid(items: GridItem[], page: StampBox = STAMP_PAGE): Map<string, GridPlacement> | null {
  const placed = new Map<string, GridPlacement>();
  for (const item of items) {
    if (item.fixed) placed.set(item.key, { ...item.fixed, ...stampBox(item.size, item.orientation) });
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
    if (!overlaps) return { x: round(c.x), y: round(c.y) };
  }
  return null;
}

const round = (n: number) => Math.round(n * 100) / 100;
