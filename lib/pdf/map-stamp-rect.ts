import type { PageGeometry } from "@/lib/pdf/collect-pages";
import { PdfError } from "@/lib/pdf/errors";

export interface StampRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

// Rounding of user-supplied coordinates (e.g. from a viewer at some zoom) must not reject a stamp
// that touches the page edge.
const EPSILON = 0.01;

/**
 * Converts a rect given as the user sees the page (visible box, after /Rotate, origin bottom-left)
 * into a /Rect in default user space. Throws STAMP_OUT_OF_PAGE when it leaves the visible box.
 */
export function mapStampRect(rect: StampRect, page: PageGeometry): [number, number, number, number] {
  const [llx, lly, urx, ury] = page.cropBox;
  const W = urx - llx;
  const H = ury - lly;
  const turned = page.rotate === 90 || page.rotate === 270;
  const shownWidth = turned ? H : W;
  const shownHeight = turned ? W : H;
  const { x, y, width, height } = rect;
  const finite = [x, y, width, height].every(Number.isFinite);
  if (
    !finite ||
    width <= 0 ||
    height <= 0 ||
    x < -EPSILON ||
    y < -EPSILON ||
    x + width > shownWidth + EPSILON ||
    y + height > shownHeight + EPSILON
  ) {
    throw new PdfError("STAMP_OUT_OF_PAGE", { x, y, width, height, pageWidth: shownWidth, pageHeight: shownHeight });
  }
  // (u, v) as shown -> (a, b) relative to the visible box's lower-left corner in user space
  const toUser = (u: number, v: number): [number, number] => {
    switch (page.rotate) {
      case 90: return [W - v, u];
      case 180: return [W - u, H - v];
      case 270: return [v, H - u];
      default: return [u, v];
    }
  };
  const [a0, b0] = toUser(x, y);
  const [a1, b1] = toUser(x + width, y + height);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return [
    round(llx + Math.min(a0, a1)),
    round(lly + Math.min(b0, b1)),
    round(llx + Math.max(a0, a1)),
    round(lly + Math.max(b0, b1)),
  ];
}
