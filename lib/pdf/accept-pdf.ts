import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf, type PdfInspection } from "@/lib/pdf/inspect-pdf";

export type AcceptedPdf = { bytes: Uint8Array; inspection: PdfInspection; repaired: boolean };

/**
 * Reads an uploaded PDF strictly; when its structure is damaged (and only then), asks `repair` for a
 * rebuilt copy. Encryption, complexity and DocMDP refusals are never "repaired" around.
 */
export async function acceptPdf(bytes: Uint8Array, deps: { repair: (bytes: Uint8Array) => Promise<Uint8Array> }): Promise<AcceptedPdf> {
  try {
    return { bytes, inspection: inspectPdf(bytes), repaired: false };
  } catch (error) {
    if (!(error instanceof PdfError) || error.code !== "INVALID_PDF") throw error;
    const repaired = await deps.repair(bytes).catch((repairError: unknown) => {
      // a file we cannot rebuild is reported with its original reason, unless repair found a better one
      throw repairError instanceof PdfError && repairError.code !== "INVALID_PDF" ? repairError : error;
    });
    return { bytes: repaired, inspection: inspectPdf(repaired), repaired: true };
  }
}
