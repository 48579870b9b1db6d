import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObject, PDFRef } from "pdf-lib";
import type { IncrementalUpdate } from "@/lib/pdf/append-incremental-update";
import { encodeTextString } from "@/lib/pdf/build-signature-dictionary";
import type { Rotation } from "@/lib/pdf/collect-pages";
import { invalidPdf } from "@/lib/pdf/errors";
import { PdfObjectParser } from "@/lib/pdf/parse-pdf-object";

export interface SignatureFieldInput {
  catalogRef: PDFRef;
  pageRef: PDFRef;
  fieldName: string;
  signatureRef: PDFRef;
  /** Default user space; [0 0 0 0] for an invisible signature. */
  rect: number[];
  appearanceRef?: PDFRef;
  rotate?: Rotation;
}

// Annotation flags: 4 = Print; 128 = Locked; 2 = Hidden is not used so viewers still list it.
const FLAGS_VISIBLE = 4;
const FLAGS_INVISIBLE = 4 | 128;

function textObject(update: IncrementalUpdate, value: string): PDFObject {
  return new PdfObjectParser(Buffer.from(encodeTextString(value), "latin1"), update.pdf.context).parseValue();
}

function numberArray(update: IncrementalUpdate, values: number[]): PDFArray {
  const array = PDFArray.withContext(update.pdf.context);
  for (const v of values) array.push(PDFNumber.of(v));
  return array;
}

/**
 * Appends `item` to the array stored under `key` in `holder`, writing whichever object actually
 * changes: the indirect array itself, or the holder (via `saveHolder`).
 */
function appendToArray(update: IncrementalUpdate, holder: PDFDict, key: string, item: PDFRef, saveHolder: () => void): void {
  const raw = holder.get(PDFName.of(key));
  if (raw instanceof PDFRef) {
    const array = update.pdf.lookup(raw);
    if (array instanceof PDFArray) {
      array.push(item);
      update.put(raw, array);
      return;
    }
  } else if (raw instanceof PDFArray) {
    raw.push(item);
    saveHolder();
    return;
  }
  const array = PDFArray.withContext(update.pdf.context);
  array.push(item);
  holder.set(PDFName.of(key), array);
  saveHolder();
}

/**
 * Creates the merged signature field + widget annotation, adds it to the page's /Annots and to
 * /AcroForm /Fields (created when absent; /DR, /NeedAppearances and other keys are kept).
 */
export function addSignatureField(update: IncrementalUpdate, input: SignatureFieldInput): PDFRef {
  const { pdf } = update;
  const ctx = pdf.context;
  const visible = input.appearanceRef !== undefined;
  const widget = PDFDict.withContext(ctx);
  widget.set(PDFName.of("Type"), PDFName.of("Annot"));
  widget.set(PDFName.of("Subtype"), PDFName.of("Widget"));
  widget.set(PDFName.of("FT"), PDFName.of("Sig"));
  widget.set(PDFName.of("T"), textObject(update, input.fieldName));
  widget.set(PDFName.of("V"), input.signatureRef);
  widget.set(PDFName.of("F"), PDFNumber.of(visible ? FLAGS_VISIBLE : FLAGS_INVISIBLE));
  widget.set(PDFName.of("Rect"), numberArray(update, input.rect));
  widget.set(PDFName.of("P"), input.pageRef);
  if (input.appearanceRef) {
    const ap = PDFDict.withContext(ctx);
    ap.set(PDFName.of("N"), input.appearanceRef);
    widget.set(PDFName.of("AP"), ap);
  }
  if (input.rotate) {
    const mk = PDFDict.withContext(ctx);
    mk.set(PDFName.of("R"), PDFNumber.of(input.rotate));
    widget.set(PDFName.of("MK"), mk);
  }
  const widgetRef = update.allocate();
  update.put(widgetRef, widget);

  const page = pdf.lookupDict(input.pageRef);
  if (!page) throw invalidPdf("target page is not a dictionary");
  appendToArray(update, page, "Annots", widgetRef, () => update.put(input.pageRef, page));

  const catalog = pdf.lookupDict(input.catalogRef);
  if (!catalog) throw invalidPdf("catalog is not a dictionary");
  const rawForm = catalog.get(PDFName.of("AcroForm"));
  let form = pdf.lookupDict(rawForm);
  let saveForm: () => void;
  if (form && rawForm instanceof PDFRef) {
    saveForm = () => update.put(rawForm, form!);
  } else if (form) {
    saveForm = () => update.put(input.catalogRef, catalog);
  } else {
    form = PDFDict.withContext(ctx);
    const formRef = update.allocate();
    catalog.set(PDFName.of("AcroForm"), formRef);
    update.put(input.catalogRef, catalog);
    saveForm = () => update.put(formRef, form!);
  }
  form.set(PDFName.of("SigFlags"), PDFNumber.of(3));
  appendToArray(update, form, "Fields", widgetRef, saveForm);
  saveForm();
  return widgetRef;
}

/**
 * Signs into a field the document already prepared (an unsigned /FT /Sig widget): its /V points at
 * our signature dictionary, and /AcroForm /SigFlags says the document is signed.
 */
export function fillSignatureField(update: IncrementalUpdate, input: { catalogRef: PDFRef; fieldRef: PDFRef; signatureRef: PDFRef }): void {
  const { pdf } = update;
  const field = pdf.lookupDict(input.fieldRef);
  if (!field) throw invalidPdf("signature field is not a dictionary");
  field.set(PDFName.of("V"), input.signatureRef);
  update.put(input.fieldRef, field);
  const catalog = pdf.lookupDict(input.catalogRef);
  const rawForm = catalog?.get(PDFName.of("AcroForm"));
  const form = pdf.lookupDict(rawForm);
  if (!catalog || !form) throw invalidPdf("signature field without an AcroForm");
  form.set(PDFName.of("SigFlags"), PDFNumber.of(3));
  update.put(rawForm instanceof PDFRef ? rawForm : input.catalogRef, rawForm instanceof PDFRef ? form : catalog);
}

/**
 * Reader-extension rights (/Perms /UR3) are voided by any incremental update; Acrobat then warns
 * that the document was altered. Dropping them in our signed revision avoids that warning.
 */
export function dropUsageRights(update: IncrementalUpdate, catalogRef: PDFRef): void {
  const catalog = update.pdf.lookupDict(catalogRef);
  const rawPerms = catalog?.get(PDFName.of("Perms"));
  const perms = update.pdf.lookupDict(rawPerms);
  if (!catalog || !perms) return;
  if (!perms.has(PDFName.of("UR3")) && !perms.has(PDFName.of("UR"))) return;
  const kept = PDFDict.withContext(update.pdf.context);
  for (const [key, value] of perms.entries()) {
    if (key !== PDFName.of("UR3") && key !== PDFName.of("UR")) kept.set(key, value);
  }
  if (kept.keys().length === 0) catalog.delete(PDFName.of("Perms"));
  else catalog.set(PDFName.of("Perms"), kept);
  update.put(catalogRef, catalog);
}
