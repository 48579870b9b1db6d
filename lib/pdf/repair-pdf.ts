import { EncryptedPDFError, PDFDocument, PDFWriter } from "pdf-lib";
import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { rebuildObjectGraph } from "@/lib/pdf/rebuild-object-graph";
import { rebuildPageTree } from "@/lib/pdf/rebuild-page-tree";
import { salvageObjects } from "@/lib/pdf/salvage-objects";

// Tokens every signature dictionary carries; in a damaged file we cannot trust the form to list them.
const SIGNATURE_MARKERS = ["/ByteRange", "/adbe.pkcs7", "/ETSI.CAdES", "/ETSI.RFC3161"];
// Readers (qpdf, pdf.js) accept a file whose header is missing or mangled when the objects are there.
const HEADER = "%PDF-";
const HEADER_WINDOW = 1024;

/**
 * Rebuilds a damaged but readable PDF the way readers do: pdf-lib scans the file for objects when
 * its cross-reference data is broken, and the object graph is then rewritten clean
 * (`rebuildObjectGraph`: no references to missing objects, no corrupt objects, compact numbers) into
 * one revision. Files that already carry signatures are never rewritten (that would break them);
 * encrypted files keep their own refusal.
 */
export async function repairPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (SIGNATURE_MARKERS.some((marker) => text.includes(marker, 0, "latin1"))) throw new PdfError("DAMAGED_SIGNED_PDF");
  const headed = text.subarray(0, HEADER_WINDOW).includes(HEADER, 0, "latin1") ? bytes : withHeader(bytes);
  const document = await load(headed).catch(async (error: unknown) => {
    if (error instanceof PdfError) throw error;
    // pdf-lib scans the objects but still parses xref tables and startxref, and stops at a broken
    // one; readers rebuild the cross-reference data from the objects, so without them is as good
    // then without the trailer dictionaries too: the catalog is found by its /Type (rebuildPageTree)
    return load(withoutCrossReferenceData(headed, false))
      .catch(() => load(withoutCrossReferenceData(headed, true)))
      .catch((retryError: unknown) => {
        if (retryError instanceof PdfError) throw retryError;
        throw new PdfError("INVALID_PDF", { reason: `not repairable: ${(error as Error).message}` });
      });
  });
  if (document.isEncrypted) throw new PdfError("ENCRYPTED_PDF");
  let repaired: Uint8Array;
  try {
    salvageObjects(document.context);
    rebuildPageTree(document.context);
    const { context } = rebuildObjectGraph(document.context);
    repaired = await PDFWriter.forContext(context, Infinity).serializeToBuffer();
  } catch (error) {
    if (error instanceof PdfError) throw error;
    // pdf-lib's objects come from a damaged file: any surprise there is that file's fault
    throw new PdfError("INVALID_PDF", { reason: `not repairable: ${(error as Error).message}` });
  }
  // what we hand to the signer must open cleanly in our own strict reader, with its pages
  const inspection = inspectPdf(repaired);
  if (inspection.pageCount === 0) throw new PdfError("INVALID_PDF", { reason: "no pages found while repairing" });
  return repaired;
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (error) {
    // bundled builds of pdf-lib throw a plain Error with EncryptedPDFError's message
    if (error instanceof EncryptedPDFError || /is encrypted/.test((error as Error)?.message ?? "")) throw new PdfError("ENCRYPTED_PDF");
    throw error;
  }
}

/** The file with its xref tables and startxref pointers (and trailers) blanked, same length: only the objects are left. */
function withoutCrossReferenceData(bytes: Uint8Array, trailers: boolean): Uint8Array {
  const text = Buffer.from(bytes).toString("latin1");
  const blank = (match: string) => match.replace(/[^\r\n]/g, " ");
  const cleaned = text
    .replace(/(^|[\r\n])xref[\s\S]*?(?=trailer|$)/g, (match, lead: string) => lead + blank(match.slice(lead.length)))
    .replace(/startxref[^%]*/g, blank)
    .replace(trailers ? /trailer[\s\S]*?(?=startxref|\d+\s+\d+\s+obj\b|$)/g : /$^/g, blank);
  return new Uint8Array(Buffer.from(cleaned, "latin1"));
}

function withHeader(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER.length + 4 + bytes.length);
  out.set(Buffer.from(`${HEADER}1.7\n`, "latin1"), 0);
  out.set(bytes, HEADER.length + 4);
  return out;
}
