import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFObject, PDFRef, PDFString } from "pdf-lib";
import { tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";

const MAX_FIELDS = 100_000;
const MAX_FIELD_DEPTH = 32;

export interface FormState {
  /** Fully qualified names of every field, to keep new names unique. */
  fieldNames: Set<string>;
  /** Signature dictionaries of signed /FT /Sig fields (/V present). */
  signatures: PDFDict[];
  /** The same, with the reference /V uses (undefined when the dictionary is direct) and the field name. */
  signatureValues: { dict: PDFDict; ref?: PDFRef; fieldName: string; field: PDFDict }[];
  /** Unsigned signature fields that are also their own widget (the common form), in field order. */
  emptySignatureFields: { ref: PDFRef; name: string; pageRef?: PDFRef }[];
  docMdpPermission?: 1 | 2 | 3;
}

function text(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.decodeText();
  return undefined;
}

/** Walks /AcroForm /Fields (with /Kids, inherited /FT) and reads the DocMDP permission, if any. */
export function readFormState(pdf: LazyPdf, catalog: PDFDict): FormState {
  const state: FormState = { fieldNames: new Set(), signatures: [], signatureValues: [], emptySignatureFields: [], docMdpPermission: readDocMdp(pdf, catalog) };
  const acroForm = pdf.lookupDict(catalog.get(PDFName.of("AcroForm")));
  const fields = pdf.lookup(acroForm?.get(PDFName.of("Fields")));
  if (!(fields instanceof PDFArray)) return state;
  const visited = new Set<number>();
  const stack: { obj: PDFObject; prefix: string; ft?: PDFObject; depth: number }[] = fields
    .asArray()
    .map((obj) => ({ obj, prefix: "", depth: 0 }))
    .reverse();
  let count = 0;
  while (stack.length > 0) {
    const { obj, prefix, ft, depth } = stack.pop()!;
    if (obj instanceof PDFRef) {
      if (visited.has(obj.objectNumber)) continue;
      visited.add(obj.objectNumber);
    }
    if (++count > MAX_FIELDS || depth > MAX_FIELD_DEPTH) throw tooComplex("form field tree too large");
    const field = pdf.lookupDict(obj);
    if (!field) continue;
    const partial = text(field.get(PDFName.of("T")));
    const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
    if (partial !== undefined) state.fieldNames.add(name);
    const fieldType = field.get(PDFName.of("FT")) ?? ft;
    const kids = pdf.lookup(field.get(PDFName.of("Kids")));
    if (kids instanceof PDFArray) {
      const list = kids.asArray();
      for (let i = list.length - 1; i >= 0; i--) stack.push({ obj: list[i], prefix: name, ft: fieldType, depth: depth + 1 });
    }
    if (fieldType === PDFName.of("Sig")) {
      const value = pdf.lookupDict(field.get(PDFName.of("V")));
      if (value) {
        state.signatures.push(value);
        const ref = field.get(PDFName.of("V"));
        state.signatureValues.push({ dict: value, ref: ref instanceof PDFRef ? ref : undefined, fieldName: name, field });
      }
      else if (obj instanceof PDFRef && !(kids instanceof PDFArray) && field.get(PDFName.of("Subtype")) === PDFName.of("Widget")) {
        const page = field.get(PDFName.of("P"));
        state.emptySignatureFields.push({ ref: obj, name, pageRef: page instanceof PDFRef ? page : undefined });
      }
    }
  }
  return state;
}

function readDocMdp(pdf: LazyPdf, catalog: PDFDict): 1 | 2 | 3 | undefined {
  const perms = pdf.lookupDict(catalog.get(PDFName.of("Perms")));
  const sig = pdf.lookupDict(perms?.get(PDFName.of("DocMDP")));
  if (!sig) return undefined;
  const references = pdf.lookup(sig.get(PDFName.of("Reference")));
  if (!(references instanceof PDFArray)) return 2;
  for (const item of references.asArray()) {
    const reference = pdf.lookupDict(item);
    if (reference?.get(PDFName.of("TransformMethod")) !== PDFName.of("DocMDP")) continue;
    const params = pdf.lookupDict(reference.get(PDFName.of("TransformParams")));
    const p = pdf.lookup(params?.get(PDFName.of("P")));
    // ISO 32000 12.8.2.2: P defaults to 2; out-of-range values are treated as the strictest
    if (!(p instanceof PDFNumber)) return 2;
    const value = p.asNumber();
    return value === 2 || value === 3 ? value : 1;
  }
  return 2;
}
