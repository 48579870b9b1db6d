import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } from "pdf-lib";
import { addSignatureField, dropUsageRights, fillSignatureField } from "@/lib/pdf/add-signature-field";
import { IncrementalUpdate, firstRevisionStart } from "@/lib/pdf/append-incremental-update";
import { buildSignatureDictionary } from "@/lib/pdf/build-signature-dictionary";
import { declareEsicExtension } from "@/lib/pdf/declare-esic-extension";
import { PageEntry, collectPages, toGeometry } from "@/lib/pdf/collect-pages";
import { StampAppearance, copyAppearance } from "@/lib/pdf/copy-appearance";
import { embedSignature } from "@/lib/pdf/embed-signature";
import { joinRevisions } from "@/lib/pdf/join-revisions";
import { PdfError, invalidPdf } from "@/lib/pdf/errors";
import { StampRect, mapStampRect } from "@/lib/pdf/map-stamp-rect";
import { LazyPdf, asPdfError, openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readFormState } from "@/lib/pdf/read-form-state";

export interface SignPdfOptions {
  /** Called once with the SHA-256 of the two ByteRange parts; returns CMS DER (CAdES detached). */
  sign: (digestSha256: Uint8Array) => Promise<Uint8Array>;
  subFilter?: "ETSI.CAdES.detached";
  /** Bytes reserved for the CMS in /Contents. */
  contentsBytes?: number;
  fieldName?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  signerName?: string;
  /** Appends a blank page as the new last page in the same revision. */
  appendPage?: { width: number; height: number };
  widget?: {
    pageIndex: number;
    rect: StampRect;
    appearance: StampAppearance;
  };
  /** Written as /M in the signature dictionary (not as a CMS attribute). */
  signingTime?: Date;
  /** The memory after `bytes` in its buffer is the caller's to give: the revision is written there, not into a copy (join-revisions.ts). */
  tailIsFree?: boolean;
}

export const DEFAULT_CONTENTS_BYTES = 16384;
const MAX_PAGE_SIDE = 14400;

/** Root catalog, its reference and the refusals that apply before anything is changed. */
export function openForChange(
  bytes: Uint8Array,
  { allowCertified = false } = {},
): { pdf: LazyPdf; catalogRef: PDFRef; catalog: PDFDict } {
  const pdf = openLazyPdf(bytes);
  const catalogRef = pdf.trailer.get(PDFName.of("Root"));
  let catalog: PDFDict | undefined;
  let docMdp: number | undefined;
  try {
    catalog = catalogRef instanceof PDFRef ? pdf.lookupDict(catalogRef) : undefined;
    if (catalog) docMdp = readFormState(pdf, catalog).docMdpPermission;
  } catch (error) {
    // an encrypted file's objects may be unreadable; encryption is then the refusal to report
    if (!pdf.encrypted) throw error;
  }
  if (docMdp === 1 && !allowCertified) throw new PdfError("CERTIFIED_NO_CHANGES");
  if (pdf.encrypted) throw new PdfError("ENCRYPTED_PDF");
  if (!(catalogRef instanceof PDFRef) || !catalog) throw invalidPdf("trailer /Root is not a catalog");
  return { pdf, catalogRef, catalog };
}

export function uniqueFieldName(requested: string | undefined, existing: Set<string>, prefix = "Signature"): string {
  if (requested !== undefined) {
    if (!requested || requested.includes(".")) throw new Error("fieldName must be non-empty and contain no '.'");
    if (existing.has(requested)) throw new Error(`a form field named "${requested}" already exists`);
    return requested;
  }
  for (let n = 1; ; n++) if (!existing.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

function appendBlankPage(update: IncrementalUpdate, rootRef: PDFRef, size: { width: number; height: number }): PageEntry {
  const { width, height } = size;
  const ctx = update.pdf.context;
  const root = update.pdf.lookupDict(rootRef)!;
  const pageRef = update.allocate();
  const page = PDFDict.withContext(ctx);
  page.set(PDFName.of("Type"), PDFName.of("Page"));
  page.set(PDFName.of("Parent"), rootRef);
  const mediaBox = PDFArray.withContext(ctx);
  for (const v of [0, 0, width, height]) mediaBox.push(PDFNumber.of(v));
  page.set(PDFName.of("MediaBox"), mediaBox);
  page.set(PDFName.of("Resources"), PDFDict.withContext(ctx));
  // Rotate is inheritable: pin 0 so a rotated root does not turn the new page
  page.set(PDFName.of("Rotate"), PDFNumber.of(0));
  update.put(pageRef, page);
  const rawKids = root.get(PDFName.of("Kids"));
  const kids = update.pdf.lookup(rawKids);
  if (!(kids instanceof PDFArray)) throw invalidPdf("root /Pages has no /Kids");
  kids.push(pageRef);
  if (rawKids instanceof PDFRef) update.put(rawKids, kids);
  const count = update.pdf.lookup(root.get(PDFName.of("Count")));
  root.set(PDFName.of("Count"), PDFNumber.of((count instanceof PDFNumber ? count.asNumber() : 0) + 1));
  update.put(rootRef, root);
  return { ref: pageRef, geometry: toGeometry({ mediaBox: [0, 0, width, height], rotate: 0 }) };
}

/**
 * Signs `bytes` as one incremental update (PAdES baseline, ETSI.CAdES.detached). The input is a byte
 * prefix of the output; earlier signatures stay valid.
 */
export async function signPdf(bytes: Uint8Array, options: SignPdfOptions): Promise<Uint8Array> {
  const contentsBytes = options.contentsBytes ?? DEFAULT_CONTENTS_BYTES;
  if (!Number.isInteger(contentsBytes) || contentsBytes < 1 || contentsBytes > 1024 * 1024) {
    throw new Error("contentsBytes must be an integer between 1 and 1048576");
  }
  const { pdf, catalogRef, rootRef, pages, fieldNames, emptySignatureFields } = readDocument(bytes);
  const fieldName = uniqueFieldName(options.fieldName, fieldNames);
  const update = new IncrementalUpdate(pdf, firstRevisionStart(pdf));
  const append = options.appendPage;
  if (append && !(append.width > 0 && append.height > 0 && append.width <= MAX_PAGE_SIDE && append.height <= MAX_PAGE_SIDE)) {
    throw new Error("appendPage width and height must be in (0, 14400] points");
  }
  if (append) pages.push(guardRead(() => appendBlankPage(update, rootRef, append)));
  if (pages.length === 0) throw invalidPdf("document has no pages");

  const widget = options.widget;
  let target = pages[0];
  let rect = [0, 0, 0, 0];
  let appearanceRef: PDFRef | undefined;
  if (widget) {
    if (!Number.isInteger(widget.pageIndex) || widget.pageIndex < 0 || widget.pageIndex >= pages.length) {
      throw PdfError.pageNotFound(widget.pageIndex + 1, pages.length);
    }
    target = pages[widget.pageIndex];
    rect = mapStampRect(widget.rect, target.geometry);
    appearanceRef = await copyAppearance(update, widget.appearance, widget.rect, target.geometry.rotate);
  }

  const placeholder = buildSignatureDictionary({
    kind: "signature",
    contentsBytes,
    signingTime: options.signingTime ?? new Date(),
    signerName: options.signerName,
    reason: options.reason,
    location: options.location,
    contactInfo: options.contactInfo,
  });
  const signatureRef = update.allocate();
  update.put(signatureRef, placeholder.body);
  // An invisible signature goes into the signature field the document prepared, when it has one.
  const preparedField = !widget && options.fieldName === undefined ? emptySignatureFields[0] : undefined;
  guardRead(() => {
    if (preparedField) fillSignatureField(update, { catalogRef, fieldRef: preparedField.ref, signatureRef });
    else addSignatureField(update, {
      catalogRef,
      pageRef: target.ref,
      fieldName,
      signatureRef,
      rect,
      appearanceRef,
      rotate: widget ? target.geometry.rotate : undefined,
    });
    dropUsageRights(update, catalogRef);
    declareEsicExtension(update, catalogRef, bytes);
  });
  const written = update.write();

  const output = joinRevisions(bytes, [written.bytes], { tailIsFree: options.tailIsFree });
  return embedSignature(output, written.bodyOffsets.get(signatureRef.objectNumber)!, placeholder, options.sign);
}

/** Everything read from the untrusted bytes; any failure there becomes a typed refusal. */
function readDocument(bytes: Uint8Array) {
  return guardRead(() => {
    const { pdf, catalogRef, catalog } = openForChange(bytes);
    const { rootRef, pages } = collectPages(pdf, catalog);
    const { fieldNames, emptySignatureFields } = readFormState(pdf, catalog);
    return { pdf, catalogRef, rootRef, pages, fieldNames, emptySignatureFields };
  });
}

/** Runs code that resolves objects of the input lazily (it may hit damage late) and types its failures. */
export function guardRead<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw asPdfError(error);
  }
}
