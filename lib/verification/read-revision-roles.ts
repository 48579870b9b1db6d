import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFObject } from "pdf-lib";
import { collectPages } from "@/lib/pdf/collect-pages";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

const MAX_FIELDS = 10_000;

export type Roles = {
  catalog: number;
  acroForm?: number;
  fields?: number;
  pages: Set<number>;
  annotArrays: Set<number>;
  contents: Set<number>;
  signatureFields: Set<number>;
  formFields: Set<number>;
  /** Fully qualified name of each field object (widgets carry their field's name). */
  fieldNames: Map<number, string>;
  annotations: Set<number>;
};

/** Object numbers by the role they play in the document before the revision. */
export function readRoles(pdf: LazyPdf, catalogNum: number): Roles {
  const roles: Roles = { catalog: catalogNum, pages: new Set(), annotArrays: new Set(), contents: new Set(), signatureFields: new Set(), formFields: new Set(), fieldNames: new Map(), annotations: new Set() };
  const catalog = pdf.lookupDict(PDFRef.of(catalogNum, 0));
  if (!catalog) return roles;
  const acroFormRef = catalog.get(PDFName.of("AcroForm"));
  if (acroFormRef instanceof PDFRef) roles.acroForm = acroFormRef.objectNumber;
  const acroForm = pdf.lookupDict(acroFormRef);
  const fieldsRef = acroForm?.get(PDFName.of("Fields"));
  if (fieldsRef instanceof PDFRef) roles.fields = fieldsRef.objectNumber;

  const stack: { obj: PDFObject; ft?: PDFObject; prefix: string }[] = (pdf.lookup(fieldsRef) instanceof PDFArray ? (pdf.lookup(fieldsRef) as PDFArray).asArray() : []).map((obj) => ({ obj, prefix: "" }));
  const seen = new Set<number>();
  while (stack.length && seen.size < MAX_FIELDS) {
    const { obj, ft, prefix } = stack.pop()!;
    if (!(obj instanceof PDFRef) || seen.has(obj.objectNumber)) continue;
    seen.add(obj.objectNumber);
    const field = pdf.lookupDict(obj);
    if (!field) continue;
    const type = field.get(PDFName.of("FT")) ?? ft;
    (type === PDFName.of("Sig") ? roles.signatureFields : roles.formFields).add(obj.objectNumber);
    const partial = field.get(PDFName.of("T"));
    const name = partial instanceof PDFString || partial instanceof PDFHexString ? (prefix ? `${prefix}.${partial.decodeText()}` : partial.decodeText()) : prefix;
    roles.fieldNames.set(obj.objectNumber, name);
    const kids = pdf.lookup(field.get(PDFName.of("Kids")));
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) stack.push({ obj: kid, ft: type, prefix: name });
  }

  for (const page of collectPages(pdf, catalog).pages) {
    roles.pages.add(page.ref.objectNumber);
    const dict = pdf.lookupDict(page.ref);
    const annots = dict?.get(PDFName.of("Annots"));
    if (annots instanceof PDFRef) roles.annotArrays.add(annots.objectNumber);
    const list = pdf.lookup(annots);
    if (list instanceof PDFArray) {
      for (const item of list.asArray()) if (item instanceof PDFRef && !seen.has(item.objectNumber)) roles.annotations.add(item.objectNumber);
    }
    const contents = dict?.get(PDFName.of("Contents"));
    const streams = contents instanceof PDFRef ? [contents, ...(pdf.lookup(contents) instanceof PDFArray ? (pdf.lookup(contents) as PDFArray).asArray() : [])] : contents instanceof PDFArray ? contents.asArray() : [];
    for (const stream of streams) if (stream instanceof PDFRef) roles.contents.add(stream.objectNumber);
  }
  return roles;
}

/** The DSS dictionary and every indirect object inside it (VRI, arrays, certificate/CRL/OCSP streams). */
export function readDssObjects(pdf: LazyPdf, catalogNum: number): Set<number> {
  const found = new Set<number>();
  const dssRef = pdf.lookupDict(PDFRef.of(catalogNum, 0))?.get(PDFName.of("DSS"));
  const stack: { obj: PDFObject | undefined; depth: number }[] = [{ obj: dssRef, depth: 0 }];
  while (stack.length && found.size < 100_000) {
    const { obj, depth } = stack.pop()!;
    if (obj instanceof PDFRef) {
      if (found.has(obj.objectNumber)) continue;
      found.add(obj.objectNumber);
    }
    if (depth > 4) continue;
    const value = pdf.lookup(obj);
    if (value instanceof PDFDict) for (const [, item] of value.entries()) stack.push({ obj: item, depth: depth + 1 });
    if (value instanceof PDFArray) for (const item of value.asArray()) stack.push({ obj: item, depth: depth + 1 });
  }
  return found;
}

