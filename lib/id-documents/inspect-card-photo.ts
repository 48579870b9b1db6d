import type { DecodedImage } from "@/lib/faces/decode-image";

export type CardRegion = { x: number; y: number; width: number; height: number };

export type CardPhotoInspection = {
  /** The card's bounding box in pixels of the decoded image, or null when nothing card-shaped stands out. */
  card: CardRegion | null;
  /** Laplacian variance of the card at 800 px wide (higher = sharper). */
  sharpness: number;
  /** Share of the card's pixels blown out to white by a reflection. */
  glare: number;
};

/** Thresholds, set from the specimen photos (docs/faces.md, "ID document as the reference"). */
export const CARD_LIMITS = {
  /** ID-1 is 85.6 × 54 mm (1.59); a tilted phone photo squeezes or stretches it. */
  minAspect: 1.2,
  maxAspect: 2.1,
  /** The card's pixels over its bounding box: a (perspective-distorted) rectangle fills most of it. */
  minFill: 0.7,
  /** The card takes at least this share of the photo. */
  minArea: 0.12,
  minSharpness: 60,
  maxGlare: 0.03,
} as const;

const WORK_WIDTH = 400;

/**
 * Where the card lies in a photo, how sharp it is and how much of it a reflection hides. The card
 * is the largest region that differs from the photo's border (the table it lies on), when that
 * region has a card's proportions and fills its box like a rectangle; a photo cropped to the card
 * itself (the region touches 3+ edges) counts when the photo has a card's proportions.
 */
export function inspectCardPhoto(image: DecodedImage): CardPhotoInspection {
  const scale = Math.min(1, WORK_WIDTH / image.width);
  const w = Math.max(1, Math.round(image.width * scale));
  const h = Math.max(1, Math.round(image.height * scale));
  const rgb = resample(image, w, h);
  const card = findCard(rgb, w, h);
  if (!card) return { card: null, sharpness: 0, glare: 0 };
  const full = { x: card.x / scale, y: card.y / scale, width: card.width / scale, height: card.height / scale };
  return { card: full, sharpness: laplacianVariance(image, full), glare: glareShare(image, full) };
}

function findCard(rgb: Uint8Array, w: number, h: number): CardRegion | null {
  const border: number[][] = [[], [], []];
  const ring = Math.max(2, Math.round(Math.min(w, h) * 0.03));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x >= ring && y >= ring && x < w - ring && y < h - ring) continue;
      for (let c = 0; c < 3; c++) border[c].push(rgb[(y * w + x) * 3 + c]);
    }
  }
  const background = border.map((values) => median(values));
  const spread = Math.max(25, ...border.map((values, c) => 2.5 * mad(values, background[c])));
  const foreground = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const d = Math.hypot(rgb[i * 3] - background[0], rgb[i * 3 + 1] - background[1], rgb[i * 3 + 2] - background[2]);
    foreground[i] = d > spread ? 1 : 0;
  }
  const component = largestComponent(foreground, w, h);
  if (!component) return null;
  const { box, edges } = component;
  if (edges >= 3) {
    // the photo is the card (cropped to it): judge the photo's own proportions
    const aspect = w / h;
    return aspect >= CARD_LIMITS.minAspect && aspect <= CARD_LIMITS.maxAspect ? { x: 0, y: 0, width: w, height: h } : null;
  }
  const aspect = box.width / box.height;
  const fill = component.spanArea / (box.width * box.height);
  const area = (box.width * box.height) / (w * h);
  if (aspect < CARD_LIMITS.minAspect || aspect > CARD_LIMITS.maxAspect || fill < CARD_LIMITS.minFill || area < CARD_LIMITS.minArea) return null;
  return box;
}

/** The largest 4-connected region; `spanArea` sums each row's leftmost-to-rightmost extent (holes such as a dark portrait count as filled). */
function largestComponent(mask: Uint8Array, w: number, h: number): { box: CardRegion; count: number; edges: number; spanArea: number } | null {
  const label = new Int32Array(w * h);
  const stack: number[] = [];
  let best: { box: CardRegion; count: number; edges: number; label: number } | null = null;
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (!mask[start] || label[start]) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let count = 0;
    let [x0, y0, x1, y1] = [w, h, 0, 0];
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      count++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (j >= 0 && mask[j] && !label[j]) {
          label[j] = next;
          stack.push(j);
        }
      }
    }
    if (!best || count > best.count) {
      const edges = Number(x0 === 0) + Number(y0 === 0) + Number(x1 === w - 1) + Number(y1 === h - 1);
      best = { box: { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }, count, edges, label: next };
    }
  }
  if (!best) return null;
  let spanArea = 0;
  for (let y = best.box.y; y < best.box.y + best.box.height; y++) {
    let first = -1;
    let last = -1;
    for (let x = best.box.x; x < best.box.x + best.box.width; x++) {
      if (label[y * w + x] !== best.label) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0) spanArea += last - first + 1;
  }
  return { box: best.box, count: best.count, edges: best.edges, spanArea };
}

/** Variance of the 4-neighbour Laplacian of the card's luma, sampled at 800 px card width. */
function laplacianVariance(image: DecodedImage, card: CardRegion): number {
  const step = card.width / 800;
  const cols = Math.floor(card.width / step) - 2;
  const rows = Math.floor(card.height / step) - 2;
  const luma = (x: number, y: number) => {
    const px = Math.min(image.width - 1, Math.round(card.x + x * step));
    const py = Math.min(image.height - 1, Math.round(card.y + y * step));
    const o = (py * image.width + px) * 3;
    return 0.299 * image.data[o] + 0.587 * image.data[o + 1] + 0.114 * image.data[o + 2];
  };
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < rows; y += 2) {
    for (let x = 1; x < cols; x += 2) {
      const value = 4 * luma(x, y) - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1);
      sum += value;
      sumSq += value * value;
      n++;
    }
  }
  return n === 0 ? 0 : sumSq / n - (sum / n) ** 2;
}

/** Share of the card's pixels at (near) full white in every channel: no card print is that bright. */
function glareShare(image: DecodedImage, card: CardRegion): number {
  let blown = 0;
  let n = 0;
  for (let y = Math.round(card.y); y < Math.min(image.height, card.y + card.height); y += 2) {
    for (let x = Math.round(card.x); x < Math.min(image.width, card.x + card.width); x += 2) {
      const o = (y * image.width + x) * 3;
      if (image.data[o] >= 250 && image.data[o + 1] >= 250 && image.data[o + 2] >= 250) blown++;
      n++;
    }
  }
  return n === 0 ? 0 : blown / n;
}

function resample(image: DecodedImage, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  const fx = image.width / w;
  const fy = image.height / h;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // average of a 2×2 sample inside the source cell: enough to calm JPEG and table noise
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (const [ox, oy] of [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
          const sx = Math.min(image.width - 1, Math.floor((x + ox) * fx));
          const sy = Math.min(image.height - 1, Math.floor((y + oy) * fy));
          v += image.data[(sy * image.width + sx) * 3 + c];
        }
        out[(y * w + x) * 3 + c] = v / 4;
      }
    }
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

function mad(values: number[], centre: number): number {
  return median(values.map((v) => Math.abs(v - centre)));
}
