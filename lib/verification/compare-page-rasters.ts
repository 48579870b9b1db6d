import type { PageGeometry } from "@/lib/pdf/collect-pages";
import type { ChangedAnnotation } from "./read-changed-annotations";
import type { PageRaster } from "./render-pages";

// Gray levels: a pixel "differs" past DIFF; "ink" (something visible) is darker than INK on the signed page.
const DIFF = 64;
const INK = 160;
// Fewer differing pixels than this are anti-aliasing noise, not a drawing.
const MIN_PIXELS = 8;
// Anti-aliased edges of a field's glyphs may fall a pixel or two outside its /Rect.
const MARGIN = 2;

export type PageComparison = {
  /** Annotations that drew over something visible on the signed page, with how many pixels. */
  covering: { name: string; pixels: number }[];
  /** Differing pixels outside every changed annotation. */
  outside: number;
  sizeChanged: boolean;
};

/**
 * Compares one page as signed with the same page now. Inside a changed annotation's rectangle a
 * difference is the annotation drawing (allowed only where the signed page was blank); anywhere else
 * it is a change of the page itself.
 */
export function comparePageRasters(signed: PageRaster, now: PageRaster, geometry: PageGeometry, annotations: ChangedAnnotation[]): PageComparison {
  if (signed.width !== now.width || signed.height !== now.height) return { covering: [], outside: now.width * now.height, sizeChanged: true };
  const boxes = annotations.map((annotation) => ({ annotation, box: pixelBox(annotation.rect, geometry, now), covered: 0 }));
  let outside = 0;
  for (let y = 0; y < now.height; y++) {
    for (let x = 0; x < now.width; x++) {
      const i = y * now.width + x;
      if (Math.abs(signed.gray[i] - now.gray[i]) <= DIFF) continue;
      const inside = boxes.filter(({ box }) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]);
      if (inside.length === 0) outside++;
      // a signature's own stamp may cover text (its signer is named in the report, and its bytes are verified on their own)
      else if (signed.gray[i] < INK && !inside.some((entry) => entry.annotation.signed)) for (const entry of inside) entry.covered++;
    }
  }
  return {
    covering: boxes.filter((entry) => entry.covered >= MIN_PIXELS).map((entry) => ({ name: entry.annotation.name, pixels: entry.covered })),
    outside: outside >= MIN_PIXELS ? outside : 0,
    sizeChanged: false,
  };
}

/** An annotation's /Rect (user space) as a pixel box on the rendered MediaBox, rotation applied, widened by MARGIN. */
function pixelBox(rect: [number, number, number, number], { mediaBox, rotate }: PageGeometry, raster: PageRaster): [number, number, number, number] {
  const [mx0, my0, mx1, my1] = mediaBox;
  const w = mx1 - mx0;
  const h = my1 - my0;
  const map = (x: number, y: number): [number, number] => {
    const dx = x - mx0;
    const dy = y - my0;
    // (u, v): position from the rendered image's top-left, in points of the rotated page
    const [u, v, uw, vh] = rotate === 90 ? [dy, dx, h, w] : rotate === 180 ? [w - dx, dy, w, h] : rotate === 270 ? [h - dy, w - dx, h, w] : [dx, h - dy, w, h];
    return [(u * raster.width) / uw, (v * raster.height) / vh];
  };
  const [ax, ay] = map(rect[0], rect[1]);
  const [bx, by] = map(rect[2], rect[3]);
  return [Math.min(ax, bx) - MARGIN, Math.min(ay, by) - MARGIN, Math.max(ax, bx) + MARGIN, Math.max(ay, by) + MARGIN];
}
