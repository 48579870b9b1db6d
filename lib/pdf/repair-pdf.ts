import { EncryptedPDFError, PDFDocument } from "pdf-lib";
import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";

// Tokens every signature dictionary carries; in a damaged file we cannot trust the form to list them.
const SIGNATURE_MARKERS = ["/ByteRange", "/adbe.pkcs7", "/ETSI.CAdES", "/ETSI.RFC3161"];

/**
 * Rebuilds a damaged but readable PDF the way readers do: pdf-lib scans the file for objects when
 * its cross-reference data is broken, and writes one clean revision. Files that already carry
 * signatures are never rewritten (that would break them); encrypted files keep their own refusal.
 */
export async function repairPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (SIGNATURE_MARKERS.some((marker) => text.includes(marker, 0, "latin1"))) throw new PdfError("DAMAGED_SIGNED_PDF");
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new PdfError("ENCRYPTED_PDF");
    throw new PdfError("INVALID_PDF", { reason: `not repairable: ${(error as Error).message}` });
  }
  if (document.isEncrypted) throw new PdfError("ENCRYPTED_PDF");
  if (document.getPageCount() === 0) throw new PdfError("INVALID_PDF", { reason: "no pages found while repairing" });
  const repaired = await document.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  // what we hand to the signer must open cleanly in our own strict reader
  inspectPdf(repaired);
  return repaired;
}
