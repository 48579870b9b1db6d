import { EncryptedPDFError, PDFDocument, PDFWriter } from "pdf-lib";
import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { rebuildObjectGraph } from "@/lib/pdf/rebuild-object-graph";

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
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(headed, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (error) {
    // bundled builds of pdf-lib throw a plain Error with EncryptedPDFError's message
    if (error instanceof EncryptedPDFError || /is encrypted/.test((error as Error)?.message ?? "")) throw new PdfError("ENCRYPTED_PDF");
    throw new PdfError("INVALID_PDF", { reason: `not repairable: ${(error as Error).message}` });
  }
  if (document.isEncrypted) throw new PdfError("ENCRYPTED_PDF");
  let repaired: Uint8Array;
  try {
    const { context } = rebuildObjectGraph(document.context);
    repaired = await PDFWriter.forContext(context, Infinity).serializeToBuffer();
  } catch (error) {
    // pdf-lib's objects come from a damaged file: any surprise there is that file's fault
    throw new PdfError("INVALID_PDF", { reason: `not repairable: ${(error as Error).message}` });
  }
  // what we hand to the signer must open cleanly in our own strict reader, with its pages
  const inspection = inspectPdf(repaired);
  if (inspection.pageCount === 0) throw new PdfError("INVALID_PDF", { reason: "no pages found while repairing" });
  return repaired;
}

function withHeader(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER.length + 4 + bytes.length);
  out.set(Buffer.from(`${HEADER}1.7\n`, "latin1"), 0);
  out.set(bytes, HEADER.length + 4);
  return out;
}
