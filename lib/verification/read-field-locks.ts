import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString } from "pdf-lib";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import type { FieldLock } from "./classify-revision-changes";

/** The FieldMDP locks a signature dictionary (/Reference) or its field (/Lock) declares. */
export function readFieldLocks(pdf: LazyPdf, signature: PDFDict, field: PDFDict | undefined): FieldLock[] {
  const locks: FieldLock[] = [];
  const read = (params: PDFDict | undefined) => {
    const action = params?.get(PDFName.of("Action"));
    if (!(action instanceof PDFName)) return;
    if (action === PDFName.of("All")) return void locks.push({ action: "all" });
    const list = pdf.lookup(params!.get(PDFName.of("Fields")));
    const fields = new Set((list instanceof PDFArray ? list.asArray() : []).flatMap((item) => (item instanceof PDFString || item instanceof PDFHexString ? [item.decodeText()] : [])));
    locks.push({ action: action === PDFName.of("Include") ? "include" : "exclude", fields });
  };
  const references = pdf.lookup(signature.get(PDFName.of("Reference")));
  for (const item of references instanceof PDFArray ? references.asArray() : []) {
    const reference = pdf.lookupDict(item);
    if (reference?.get(PDFName.of("TransformMethod")) === PDFName.of("FieldMDP")) read(pdf.lookupDict(reference.get(PDFName.of("TransformParams"))));
  }
  read(pdf.lookupDict(field?.get(PDFName.of("Lock"))));
  return locks;
}
