import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from "pdf-lib";
import type { IncrementalUpdate } from "@/lib/pdf/append-incremental-update";
import type { Rotation } from "@/lib/pdf/collect-pages";

export interface StampAppearance {
  document: PDFDocument;
  formXObject: PDFRef;
}

const MAX_COPIED_OBJECTS = 10_000;

// Appearance-space rotation (counter-clockwise) that cancels the page's clockwise /Rotate.
const ROTATION_MATRIX: Record<Rotation, number[]> = {
  0: [1, 0, 0, 1, 0, 0],
  90: [0, 1, -1, 0, 0, 0],
  180: [-1, 0, 0, -1, 0, 0],
  270: [0, -1, 1, 0, 0, 0],
};

function numberArray(update: IncrementalUpdate, values: number[]): PDFArray {
  const array = PDFArray.withContext(update.pdf.context);
  for (const v of values) array.push(PDFNumber.of(v));
  return array;
}

/**
 * Copies the scratch document's Form XObject and everything it references into the target as new,
 * renumbered objects, then wraps it in a form whose /Matrix keeps the stamp upright on rotated pages
 * and whose BBox is the stamp size as the user sees it.
 */
export async function copyAppearance(
  update: IncrementalUpdate,
  appearance: StampAppearance,
  size: { width: number; height: number },
  rotate: Rotation,
): Promise<PDFRef> {
  // pdf-lib embeds fonts and images lazily, on flush
  await appearance.document.flush();
  const source = appearance.document.context;
  const mapping = new Map<number, PDFRef>();
  const queue: PDFRef[] = [];

  const mapRef = (ref: PDFRef): PDFRef => {
    let target = mapping.get(ref.objectNumber);
    if (!target) {
      if (mapping.size >= MAX_COPIED_OBJECTS) throw new Error("stamp appearance references too many objects");
      target = update.allocate();
      mapping.set(ref.objectNumber, target);
      queue.push(ref);
    }
    return target;
  };

  const clone = (obj: PDFObject): PDFObject => {
    if (obj instanceof PDFRef) return mapRef(obj);
    if (obj instanceof PDFDict) {
      const copy = PDFDict.withContext(update.pdf.context);
      for (const [key, value] of obj.entries()) {
        // a page reachable from the appearance would drag the scratch page tree along
        if (key === PDFName.of("Parent") || key === PDFName.of("P")) continue;
        copy.set(key, clone(value));
      }
      return copy;
    }
    if (obj instanceof PDFArray) {
      const copy = PDFArray.withContext(update.pdf.context);
      for (const value of obj.asArray()) copy.push(clone(value));
      return copy;
    }
    if (obj instanceof PDFStream) {
      // getContents() yields the encoded bytes that match the dict's /Filter
      return PDFRawStream.of(clone(obj.dict) as PDFDict, obj.getContents());
    }
    return obj;
  };

  const innerRef = mapRef(appearance.formXObject);
  while (queue.length > 0) {
    const ref = queue.shift()!;
    const obj = source.lookup(ref);
    if (!obj) throw new Error(`stamp appearance object ${ref.toString()} is missing`);
    update.put(mapping.get(ref.objectNumber)!, clone(obj));
  }

  const inner = source.lookup(appearance.formXObject);
  if (!(inner instanceof PDFStream)) throw new Error("stamp appearance is not a Form XObject");
  const bbox = inner.dict.lookup(PDFName.of("BBox"));
  const [bx0, by0, bx1, by1] =
    bbox instanceof PDFArray && bbox.size() === 4
      ? bbox.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0))
      : [0, 0, size.width, size.height];
  const sx = bx1 !== bx0 ? size.width / (bx1 - bx0) : 1;
  const sy = by1 !== by0 ? size.height / (by1 - by0) : 1;
  const content = `q ${fmt(sx)} 0 0 ${fmt(sy)} ${fmt(-bx0 * sx)} ${fmt(-by0 * sy)} cm /Stamp Do Q`;

  const wrapperDict = PDFDict.withContext(update.pdf.context);
  wrapperDict.set(PDFName.of("Type"), PDFName.of("XObject"));
  wrapperDict.set(PDFName.of("Subtype"), PDFName.of("Form"));
  wrapperDict.set(PDFName.of("BBox"), numberArray(update, [0, 0, size.width, size.height]));
  wrapperDict.set(PDFName.of("Matrix"), numberArray(update, ROTATION_MATRIX[rotate]));
  const xobjects = PDFDict.withContext(update.pdf.context);
  xobjects.set(PDFName.of("Stamp"), innerRef);
  const resources = PDFDict.withContext(update.pdf.context);
  resources.set(PDFName.of("XObject"), xobjects);
  wrapperDict.set(PDFName.of("Resources"), resources);
  const wrapperRef = update.allocate();
  update.put(wrapperRef, PDFRawStream.of(wrapperDict, Buffer.from(content, "latin1")));
  return wrapperRef;
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
}
