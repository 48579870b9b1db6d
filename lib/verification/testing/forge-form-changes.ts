import { PDFArray, PDFName, PDFRef } from "pdf-lib";
import { COVER } from "./attack-catalogue";
import { appendRevision, edited, nextObjectNumber, streamBody, view, type ForgedObject } from "./forge-pdf";

/**
 * Test-only builders for issue 41: a text field prepared before signing, filled after; a font
 * re-written; a new empty signature field; a visible overlay in an unsigned save.
 */

/** The original with an empty text field `name` (no appearance: nothing drawn) at `rect` on page 1. */
export function withEmptyTextField(base: Uint8Array, name: string, rect: readonly number[]): { bytes: Uint8Array; field: number } {
  const { pdf, catalog, catalogRef, page, pageRef } = view(base);
  const n = nextObjectNumber(base);
  const annots = pdf.lookup(page.get(PDFName.of("Annots")));
  const items = annots instanceof PDFArray ? annots.asArray().map(String).join(" ") : "";
  const acroForm = pdf.lookupDict(catalog.get(PDFName.of("AcroForm")));
  const fields = acroForm ? (pdf.lookup(acroForm.get(PDFName.of("Fields"))) as PDFArray).asArray().map(String).join(" ") : "";
  const objects: ForgedObject[] = [
    { num: n, body: `<< /FT /Tx /T (${name}) /Type /Annot /Subtype /Widget /F 4 /Rect [${rect.join(" ")}] /P ${pageRef} /DA (/Helv 12 Tf 0 g) >>` },
    { num: pageRef.objectNumber, body: edited(page, { Annots: `[${items} ${n} 0 R]` }) },
    { num: catalogRef.objectNumber, body: edited(catalog, { AcroForm: `<< /Fields [${fields} ${n} 0 R] /DA (/Helv 12 Tf 0 g) /DR << /Font << /Helv << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>` }) },
  ];
  return { bytes: appendRevision(base, objects), field: n };
}

/** Fills text field `field` after signing: its value and an appearance that paints its /Rect white and writes over it. */
export function fillField(signed: Uint8Array, field: number, rect: readonly number[]): Uint8Array {
  const { pdf } = view(signed);
  const dict = pdf.lookupDict(PDFRef.of(field, 0))!;
  const n = nextObjectNumber(signed);
  return appendRevision(signed, [
    { num: n, body: COVER(rect[2] - rect[0], rect[3] - rect[1]) },
    { num: field, body: edited(dict, { V: "(Pagar 1.000.000 a Mallory)", AP: `<< /N ${n} 0 R >>` }) },
  ]);
}

/** The first page's first font written again by `edit` (the dictionary's text) under its own number. */
export function withFontRewritten(signed: Uint8Array, edit: (fontDict: string) => string): Uint8Array {
  const { pdf, page } = view(signed);
  const fonts = pdf.lookupDict(pdf.lookupDict(page.get(PDFName.of("Resources")))!.get(PDFName.of("Font")))!;
  const fontRef = fonts.values()[0] as PDFRef;
  return appendRevision(signed, [{ num: fontRef.objectNumber, body: edit(pdf.lookupDict(fontRef)!.toString()) }]);
}

/** A last revision adding an empty signature field (the next signer's), with `appearance` drawn at `rect` when given. */
export function withEmptySignatureField(signed: Uint8Array, rect: readonly number[], appearance?: string): Uint8Array {
  const { pdf, catalog, catalogRef, page, pageRef } = view(signed);
  const n = nextObjectNumber(signed);
  const annots = pdf.lookup(page.get(PDFName.of("Annots")));
  const items = annots instanceof PDFArray ? annots.asArray().map(String).join(" ") : "";
  const acroFormRef = catalog.get(PDFName.of("AcroForm"));
  const acroForm = pdf.lookupDict(acroFormRef)!;
  const fields = (pdf.lookup(acroForm.get(PDFName.of("Fields"))) as PDFArray).asArray().map(String).join(" ");
  const withField = edited(acroForm, { Fields: `[${fields} ${n} 0 R]` });
  return appendRevision(signed, [
    ...(appearance ? [{ num: n + 1, body: appearance }] : []),
    { num: n, body: `<< /FT /Sig /T (Firmante2) /Type /Annot /Subtype /Widget /F 4 /Rect [${rect.join(" ")}] /P ${pageRef}${appearance ? ` /AP << /N ${n + 1} 0 R >>` : ""} >>` },
    { num: pageRef.objectNumber, body: edited(page, { Annots: `[${items} ${n} 0 R]` }) },
    acroFormRef instanceof PDFRef ? { num: acroFormRef.objectNumber, body: withField } : { num: catalogRef.objectNumber, body: edited(catalog, { AcroForm: withField }) },
  ]);
}

/** An unsigned save that appends a content stream to page 1: `content` drawn over what was signed. */
export function withOverlayContent(signed: Uint8Array, content: string): Uint8Array {
  const { page, pageRef } = view(signed);
  const n = nextObjectNumber(signed);
  const contents = page.get(PDFName.of("Contents"))!;
  const list = contents instanceof PDFArray ? contents.asArray().map(String).join(" ") : String(contents);
  return appendRevision(signed, [
    { num: n, body: streamBody(content) },
    { num: pageRef.objectNumber, body: edited(page, { Contents: `[${list} ${n} 0 R]` }) },
  ]);
}

/** An unsigned save that writes the catalog and /Info again with the same content (Acrobat's "save" after signing). */
export function withUnsignedSave(signed: Uint8Array): Uint8Array {
  const { catalog, catalogRef } = view(signed);
  return appendRevision(signed, [{ num: catalogRef.objectNumber, body: catalog.toString() }]);
}
