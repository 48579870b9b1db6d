export type StampSize = 1 | 2;

/** A rectangle in stamp space: PDF points, origin at the stamp's bottom-left corner. */
export interface StampBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StampLayout {
  width: number;
  height: number;
  image?: StampBox;
  qr?: StampBox;
  text: StampBox;
  fontSize: { max: number; min: number };
  border: number;
}

// Size 1 in points. The QR box holds a version-12 code (73 modules with the quiet zone) at 1.2 pt per
// module, the minimum that still decodes from a 150 dpi scan.
const PAD = 5;
const GAP = 5;
const COLUMN = 88;
const QR = 88;
const WIDTH = 250;
const TALL_BODY = 160; // image above QR
const SHORT_BODY = 118; // image or QR alone: room for ~10 text rows at 8 pt
/** Smallest text of a size-1 stamp: 6 pt stays legible at 100% zoom (decision 13); size 2 doubles it. */
export const MIN_FONT_SIZE = 6;

export type StampOrientation = "horizontal" | "vertical";

const PROCESS_LONG = 250;
const PROCESS_SHORT = 80; // six rows at 8 pt, or ten at 6 pt, between the paddings

/**
 * Where everything goes in a stamp-API stamp; size 2 is size 1 doubled in every case (outer size,
 * boxes, fonts). Size 1, and size 2 without both image and QR: a left column with the image and the
 * QR below it, text on the right. Size 2 with image and QR: the two side by side above the text.
 */
export function layoutStamp(size: StampSize, hasImage: boolean, hasQr: boolean): StampLayout {
  const u = size;
  const fontSize = { max: 8 * u, min: MIN_FONT_SIZE * u };
  const border = 0.75 * u;
  if (size === 2 && hasQr && hasImage) return sideBySide(fontSize, border);

  const pad = PAD * u;
  const body = (hasImage && hasQr ? TALL_BODY : SHORT_BODY) * u;
  const width = WIDTH * u;
  const height = body + 2 * pad;
  const column = hasImage || hasQr ? COLUMN * u : 0;
  const textX = column > 0 ? pad + column + GAP * u : pad;
  const text = { x: textX, y: pad, width: width - pad - textX, height: body };

  const qrSide = QR * u;
  const qr = hasQr ? { x: pad, y: hasImage ? pad : pad + (body - qrSide) / 2, width: qrSide, height: qrSide } : undefined;
  const imageBottom = hasQr ? pad + qrSide + GAP * u : pad;
  const image = hasImage ? { x: pad, y: imageBottom, width: column, height: height - pad - imageBottom } : undefined;
  return { width, height, image, qr, text, fontSize, border };
}

/**
 * A process signer's stamp: text only, 250 x 80 pt at size 1 (several fit on the appended page),
 * doubled at size 2. Vertical swaps the sides and keeps the text running across, so it reads
 * upright instead of being shrunk or turned.
 */
export function layoutProcessStamp(size: StampSize, orientation: StampOrientation): StampLayout {
  const u = size;
  const pad = PAD * u;
  const [width, height] = orientation === "vertical" ? [PROCESS_SHORT * u, PROCESS_LONG * u] : [PROCESS_LONG * u, PROCESS_SHORT * u];
  const text = { x: pad, y: pad, width: width - 2 * pad, height: height - 2 * pad };
  return { width, height, text, fontSize: { max: 8 * u, min: MIN_FONT_SIZE * u }, border: 0.75 * u };
}

/** 500 x 340, double the 250 x 170 of size 1: image and QR side by side on top, centred; text below. */
function sideBySide(fontSize: StampLayout["fontSize"], border: number): StampLayout {
  const pad = 2 * PAD;
  const gap = 2 * GAP;
  const row = 2 * QR;
  const imageWidth = (row * 3) / 4; // a 3:4 portrait, the usual ID photo shape
  const width = 2 * WIDTH;
  const height = 2 * (TALL_BODY + 2 * PAD);
  const rowY = height - pad - row;
  const rowX = (width - (imageWidth + gap + row)) / 2;
  const image = { x: rowX, y: rowY, width: imageWidth, height: row };
  const qr = { x: rowX + imageWidth + gap, y: rowY, width: row, height: row };
  const text = { x: pad, y: pad, width: width - 2 * pad, height: rowY - gap - pad };
  return { width, height, image, qr, text, fontSize, border };
}

/** Outer size of a stamp, so a caller can check the position before drawing anything. */
export function stampDimensions(size: StampSize, hasImage: boolean, hasQr: boolean): { width: number; height: number } {
  const { width, height } = layoutStamp(size, hasImage, hasQr);
  return { width, height };
}
