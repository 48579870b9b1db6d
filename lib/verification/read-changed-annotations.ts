import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFObject } from "pdf-lib";
import { collectPages, type PageGeometry } from "@/lib/pdf/collect-pages";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { sameObject } from "./compare-revision-entries";
import { objectIn } from "./read-revisions";

const MAX_ANNOTATIONS_PER_PAGE = 2_000;

/** An annotation (a form field's widget, a comment, a signature) that is new or drawn differently since signing. */
/** `signed`: the widget of a signature field holding a signature (its stamp may lie over text, as multi-signer documents show). */
export type ChangedAnnotation = { name: string; rect: [number, number, number, number]; signed: boolean };

export type PageAnnotations = { geometry: PageGeometry; changed: ChangedAnnotation[] };

/**
 * For each page of the final document: its geometry and the annotations that are new since the signed
 * revision or whose dictionary or normal appearance stream is not the same object. These are the
 * only places a permitted form fill or annotation may draw.
 */
export function readChangedAnnotations(signed: LazyPdf, final: LazyPdf): PageAnnotations[] {
  const catalog = final.lookupDict(final.trailer.get(PDFName.of("Root")));
  if (!catalog) return [];
  return collectPages(final, catalog).pages.map(({ ref, geometry }) => {
    const annots = final.lookup(final.lookupDict(ref)?.get(PDFName.of("Annots")));
    const changed: ChangedAnnotation[] = [];
    for (const item of annots instanceof PDFArray ? annots.asArray().slice(0, MAX_ANNOTATIONS_PER_PAGE) : []) {
      const annotation = final.lookupDict(item);
      const rect = rectOf(final, annotation?.get(PDFName.of("Rect")));
      if (!annotation || !rect || !(item instanceof PDFRef)) continue;
      if (!changedSince(signed, final, item) && appearanceRefs(final, annotation).every((appearance) => !changedSince(signed, final, appearance))) continue;
      changed.push({ name: nameOf(final, annotation, item.objectNumber), rect, signed: isSignedSignatureWidget(final, annotation) });
    }
    return { geometry, changed };
  });
}

function changedSince(signed: LazyPdf, final: LazyPdf, ref: PDFRef): boolean {
  const old = objectIn(signed, ref.objectNumber);
  return old === undefined || !sameObject(old, objectIn(final, ref.objectNumber));
}

/** The indirect streams of the normal appearance (/AP /N: one stream, or one per state). */
function appearanceRefs(pdf: LazyPdf, annotation: PDFDict): PDFRef[] {
  const normal = pdf.lookupDict(annotation.get(PDFName.of("AP")))?.get(PDFName.of("N"));
  if (normal instanceof PDFRef) {
    const states = pdf.lookupDict(normal);
    return [normal, ...(states ? states.values().filter((v): v is PDFRef => v instanceof PDFRef) : [])];
  }
  return normal instanceof PDFDict ? normal.values().filter((v): v is PDFRef => v instanceof PDFRef) : [];
}

function rectOf(pdf: LazyPdf, value: PDFObject | undefined): [number, number, number, number] | undefined {
  const array = pdf.lookup(value);
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const numbers = array.asArray().map((item) => pdf.lookup(item));
  if (!numbers.every((item): item is PDFNumber => item instanceof PDFNumber)) return undefined;
  const [a, b, c, d] = numbers.map((item) => item.asNumber());
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/** The field's fully qualified name for a widget, else the annotation's subtype and number. */
function nameOf(pdf: LazyPdf, annotation: PDFDict, num: number): string {
  const parts: string[] = [];
  let node: PDFDict | undefined = annotation;
  for (let depth = 0; node && depth < 32; depth++) {
    const partial = node.get(PDFName.of("T"));
    if (partial instanceof PDFString || partial instanceof PDFHexString) parts.unshift(partial.decodeText());
    node = pdf.lookupDict(node.get(PDFName.of("Parent")));
  }
  if (parts.length) return `field "${parts.join(".")}"`;
  const subtype = annotation.get(PDFName.of("Subtype"));
  return `annotation ${num}${subtype instanceof PDFName ? ` (${subtype.decodeText()})` : ""}`;
}

function isSignedSignatureWidget(pdf: LazyPdf, widget: PDFDict): boolean {
  const field = widget.has(PDFName.of("FT")) ? widget : pdf.lookupDict(widget.get(PDFName.of("Parent")));
  return field?.get(PDFName.of("FT")) === PDFName.of("Sig") && pdf.lookupDict(field.get(PDFName.of("V"))) !== undefined;
}
