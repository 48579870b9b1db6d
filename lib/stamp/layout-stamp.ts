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

/**
 * Where everything goes. Size 1 (and size 2 without a QR, doubled): a left column with the image and
 * the QR below it, text on the right. Size 2 with a QR: image and QR side by side, each twice the
 * size-1 size, text below them at twice the size-1 font size.
 */
export function layoutStamp(size: StampSize, hasImage: boolean, hasQr: boolean): StampLayout {
  const u = size;
  const fontSize = { max: 8 * u, min: 5 * u };
  const border = 0.75 * u;
  if (size === 2 && hasQr) return sideBySide(hasImage, fontSize, border);

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

function sideBySide(hasImage: boolean, fontSize: StampLayout["fontSize"], border: number): StampLayout {
  const pad = 2 * PAD;
  const gap = 2 * GAP;
  const row = 2 * QR;
  const imageWidth = (row * 3) / 4; // a 3:4 portrait, the usual ID photo shape
  const textHeight = 154;
  const width = 340;
  const height = pad + textHeight + gap + row + pad;
  const rowY = pad + textHeight + gap;
  const image = hasImage ? { x: pad, y: rowY, width: imageWidth, height: row } : undefined;
  const qr = { x: hasImage ? pad + imageWidth + gap : pad, y: rowY, width: row, height: row };
  const text = { x: pad, y: pad, width: width - 2 * pad, height: textHeight };
  return { width, height, image, qr, text, fontSize, border };
}

/** Outer size of a stamp, so a caller can check the position before drawing anything. */
export function stampDimensions(size: StampSize, hasImage: boolean, hasQr: boolean): { width: number; height: number } {
  const { width, height } = layoutStamp(size, hasImage, hasQr);
  return { width, height };
}
