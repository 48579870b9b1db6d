import { createHash } from "node:crypto";
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef } from "pdf-lib";
import { addSignatureField } from "@/lib/pdf/add-signature-field";
import { IncrementalUpdate, firstRevisionStart } from "@/lib/pdf/append-incremental-update";
import { buildSignatureDictionary } from "@/lib/pdf/build-signature-dictionary";
import { collectPages } from "@/lib/pdf/collect-pages";
import { embedSignature } from "@/lib/pdf/embed-signature";
import { declareEsicExtension } from "@/lib/pdf/declare-esic-extension";
import { decodeStream } from "@/lib/pdf/decode-stream";
import { invalidPdf } from "@/lib/pdf/errors";
import { joinRevisions } from "@/lib/pdf/join-revisions";
import { readFormState } from "@/lib/pdf/read-form-state";
import { guardRead, openForChange, uniqueFieldName } from "@/lib/pdf/sign-pdf";

export interface LongTermValidationInput {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocsps?: Uint8Array[];
  /**
   * Returns a TimeStampToken (DER) over the given SHA-256 of the byte range. Without it only the
   * validation-data revision is written (PAdES B-LT instead of B-LTA).
   */
  timestamp?: (digestSha256: Uint8Array) => Promise<Uint8Array>;
  /** Bytes reserved for the token in /Contents. */
  contentsBytes?: number;
  /** The memory after the document in its buffer is the caller's to give: the revisions are written there (join-revisions.ts). */
  tailIsFree?: boolean;
}

const DEFAULT_TOKEN_BYTES = 12288;

const MAX_EXISTING_ITEMS = 1024;

/** Appends `items` to the DSS array `key`, skipping any the DSS (or this call) already holds. */
function addStreams(update: IncrementalUpdate, dss: PDFDict, key: string, items: Uint8Array[]): void {
  if (items.length === 0) return;
  const ctx = update.pdf.context;
  const existing = update.pdf.lookup(dss.get(PDFName.of(key)));
  const array = PDFArray.withContext(ctx);
  const seen = new Set<string>();
  const digestOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  if (existing instanceof PDFArray) {
    for (const [index, item] of existing.asArray().entries()) {
      array.push(item);
      if (index >= MAX_EXISTING_ITEMS) continue;
      const stream = update.pdf.lookup(item);
      // decoded with the document's budget; an unreadable entry is kept and simply not matched
      if (stream instanceof PDFRawStream) {
        try {
          seen.add(digestOf(decodeStream(stream.dict, stream.getContents(), update.pdf.decodeBudget)));
        } catch {
          // kept as it is
        }
      }
    }
  }
  for (const item of items) {
    const digest = digestOf(item);
    if (seen.has(digest)) continue;
    seen.add(digest);
    const ref = update.allocate();
    update.put(ref, PDFRawStream.of(PDFDict.withContext(ctx), item));
    array.push(ref);
  }
  dss.set(PDFName.of(key), array);
}

/**
 * B-LTA finish: revision 1 adds validation data (/DSS in the catalog), revision 2 adds a document
 * timestamp (/DocTimeStamp, ETSI.RFC3161) whose token covers everything before it.
 * Allowed on DocMDP P=1 documents: PAdES exempts DSS and document timestamps from DocMDP.
 */
export async function finishLongTermValidation(bytes: Uint8Array, input: LongTermValidationInput): Promise<Uint8Array> {
  const prepared = guardRead(() => {
    const { pdf, catalogRef, catalog } = openForChange(bytes, { allowCertified: true });
    const { pages } = collectPages(pdf, catalog);
    if (pages.length === 0) throw invalidPdf("document has no pages");
    const fieldName = uniqueFieldName(undefined, readFormState(pdf, catalog).fieldNames, "DocumentTimestamp");

    const dssUpdate = new IncrementalUpdate(pdf, firstRevisionStart(pdf));
    const previous = pdf.lookupDict(catalog.get(PDFName.of("DSS")));
    const dss = PDFDict.withContext(pdf.context);
    if (previous) for (const [key, value] of previous.entries()) dss.set(key, value);
    addStreams(dssUpdate, dss, "Certs", input.certificates);
    addStreams(dssUpdate, dss, "CRLs", input.crls);
    addStreams(dssUpdate, dss, "OCSPs", input.ocsps ?? []);
    const dssRef = dssUpdate.allocate();
    dssUpdate.put(dssRef, dss);
    catalog.set(PDFName.of("DSS"), dssRef);
    dssUpdate.put(catalogRef, catalog);
    const dssRevision = dssUpdate.write();
    if (!input.timestamp) return { dssBytes: dssRevision.bytes, tsBytes: null, bodyOffset: 0, placeholder: null };

    const tsUpdate = new IncrementalUpdate(pdf, dssRevision.next);
    const placeholder = buildSignatureDictionary({ kind: "doc-timestamp", contentsBytes: input.contentsBytes ?? DEFAULT_TOKEN_BYTES });
    const signatureRef: PDFRef = tsUpdate.allocate();
    tsUpdate.put(signatureRef, placeholder.body);
    addSignatureField(tsUpdate, { catalogRef, pageRef: pages[0].ref, fieldName, signatureRef, rect: [0, 0, 0, 0] });
    declareEsicExtension(tsUpdate, catalogRef, bytes);
    const tsRevision = tsUpdate.write();
    return {
      dssBytes: dssRevision.bytes,
      tsBytes: tsRevision.bytes,
      bodyOffset: tsRevision.bodyOffsets.get(signatureRef.objectNumber)!,
      placeholder,
    };
  });
  const joinOptions = { tailIsFree: input.tailIsFree };
  if (!prepared.tsBytes || !prepared.placeholder || !input.timestamp) return joinRevisions(bytes, [prepared.dssBytes], joinOptions);
  const output = joinRevisions(bytes, [prepared.dssBytes, prepared.tsBytes], joinOptions);
  return embedSignature(output, prepared.bodyOffset, prepared.placeholder, input.timestamp);
}
