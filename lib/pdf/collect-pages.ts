import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObject, PDFRef } from "pdf-lib";
import { invalidPdf, tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

export type Box = [llx: number, lly: number, urx: number, ury: number];
export type Rotation = 0 | 90 | 180 | 270;

export interface PageGeometry {
  mediaBox: Box;
  /** Visible box: CropBox clipped to the MediaBox (the MediaBox when absent). */
  cropBox: Box;
  rotate: Rotation;
}

export interface PageEntry {
  ref: PDFRef;
  geometry: PageGeometry;
}

export interface PageTree {
  rootRef: PDFRef;
  pages: PageEntry[];
}

const MAX_PAGES = 250_000;
const MAX_TREE_DEPTH = 128;
// ISO 32000 default when a (broken) page has no MediaBox anywhere in its ancestry: US Letter
const DEFAULT_MEDIA_BOX: Box = [0, 0, 612, 792];

interface Inherited {
  mediaBox?: Box;
  cropBox?: Box;
  rotate?: number;
}

function readBox(pdf: LazyPdf, obj: PDFObject | undefined): Box | undefined {
  const array = pdf.lookup(obj);
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const values = array.asArray().map((v) => pdf.lookup(v));
  if (!values.every((v) => v instanceof PDFNumber)) return undefined;
  const [a, b, c, d] = values.map((v) => (v as PDFNumber).asNumber());
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

function inheritFrom(pdf: LazyPdf, dict: PDFDict, parent: Inherited): Inherited {
  const rotate = pdf.lookup(dict.get(PDFName.of("Rotate")));
  return {
    mediaBox: readBox(pdf, dict.get(PDFName.of("MediaBox"))) ?? parent.mediaBox,
    cropBox: readBox(pdf, dict.get(PDFName.of("CropBox"))) ?? parent.cropBox,
    rotate: rotate instanceof PDFNumber ? rotate.asNumber() : parent.rotate,
  };
}

export function toGeometry(attrs: Inherited): PageGeometry {
  const mediaBox = attrs.mediaBox ?? DEFAULT_MEDIA_BOX;
  const crop = attrs.cropBox ?? mediaBox;
  const cropBox: Box = [
    Math.max(crop[0], mediaBox[0]),
    Math.max(crop[1], mediaBox[1]),
    Math.min(crop[2], mediaBox[2]),
    Math.min(crop[3], mediaBox[3]),
  ];
  if (cropBox[2] < cropBox[0] || cropBox[3] < cropBox[1]) cropBox.splice(0, 4, ...mediaBox);
  const r = Number.isInteger(attrs.rotate) ? (((attrs.rotate as number) % 360) + 360) % 360 : 0;
  return { mediaBox, cropBox, rotate: (r % 90 === 0 ? r : 0) as Rotation };
}

/**
 * Lists every page in order with its inherited geometry. Iterative with a visited set, because
 * hostile trees loop or nest deeply and /Count can lie.
 */
export function collectPages(pdf: LazyPdf, catalog: PDFDict): PageTree {
  const rootRef = catalog.get(PDFName.of("Pages"));
  if (!(rootRef instanceof PDFRef)) throw invalidPdf("catalog /Pages is not an indirect reference");
  const pages: PageEntry[] = [];
  const visited = new Set<number>();
  const stack: { ref: PDFObject | undefined; inherited: Inherited; depth: number }[] = [
    { ref: rootRef, inherited: {}, depth: 0 },
  ];
  while (stack.length > 0) {
    const { ref, inherited, depth } = stack.pop()!;
    if (!(ref instanceof PDFRef)) throw invalidPdf("page tree node is not an indirect reference");
    if (visited.has(ref.objectNumber)) throw invalidPdf("page tree loops");
    visited.add(ref.objectNumber);
    if (depth > MAX_TREE_DEPTH) throw tooComplex("page tree too deep");
    const isRoot = depth === 0;
    const node = pdf.getObject(ref, isRoot);
    if (!(node instanceof PDFDict)) throw invalidPdf("page tree node is not a dictionary");
    const kids = pdf.lookup(node.get(PDFName.of("Kids")));
    const type = node.get(PDFName.of("Type"));
    const attrs = inheritFrom(pdf, node, inherited);
    if (type === PDFName.of("Pages") || (type !== PDFName.of("Page") && kids instanceof PDFArray)) {
      if (!(kids instanceof PDFArray)) throw invalidPdf("/Pages node without /Kids");
      const list = kids.asArray();
      for (let i = list.length - 1; i >= 0; i--) stack.push({ ref: list[i], inherited: attrs, depth: depth + 1 });
    } else if (isRoot) {
      throw invalidPdf("catalog /Pages is not a page tree");
    } else {
      pages.push({ ref, geometry: toGeometry(attrs) });
      if (pages.length > MAX_PAGES) throw tooComplex("too many pages");
    }
  }
  return { rootRef, pages };
}
