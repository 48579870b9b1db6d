import { PdfError } from "@/lib/pdf/errors";
import { findCorruptObject } from "@/lib/pdf/find-corrupt-object";
import { inspectPdf, type PdfInspection } from "@/lib/pdf/inspect-pdf";

export type AcceptedPdf = { bytes: Uint8Array; inspection: PdfInspection; repaired: boolean };

/**
 * Reads an uploaded PDF strictly; when its structure is damaged (and only then), asks `repair` for a
 * rebuilt copy (object numbering beyond the PDF limit counts as damage). An unsigned file that the strict reader opens but that lists a corrupt object is
 * rebuilt too, so the signed base is one every reader opens. Encryption, complexity and DocMDP
 * refusals are never "repaired" around.
 */
export async function acceptPdf(bytes: Uint8Array, deps: { repair: (bytes: Uint8Array) => Promise<Uint8Array> }): Promise<AcceptedPdf> {
  let inspection: PdfInspection;
  try {
    inspection = inspectPdf(bytes);
  } catch (error) {
    if (!(error instanceof PdfError) || !(error.code === "INVALID_PDF" || error.details?.repairable)) throw error;
    const repaired = await deps.repair(bytes).catch((repairError: unknown) => {
      // a file we cannot rebuild is reported with its original reason, unless repair found a better
      // one: another refusal, or the object that is beyond repair
      throw repairError instanceof PdfError && (repairError.code !== "INVALID_PDF" || repairError.details?.object) ? repairError : error;
    });
    return { bytes: repaired, inspection: inspectPdf(repaired), repaired: true };
  }
  if (inspection.signatureCount > 0) return { bytes, inspection, repaired: false };
  let corrupt: string | undefined;
  try {
    corrupt = findCorruptObject(bytes);
  } catch (error) {
    // the strict reader reads lazily: a garbled xref entry shows only when every entry is listed, and
    // then the file is damaged like any other the strict reader refuses
    if (!(error instanceof PdfError) || error.code !== "INVALID_PDF") throw error;
    const repaired = await deps.repair(bytes).catch((repairError: unknown) => {
      throw repairError instanceof PdfError && (repairError.code !== "INVALID_PDF" || repairError.details?.object) ? repairError : error;
    });
    return { bytes: repaired, inspection: inspectPdf(repaired), repaired: true };
  }
  if (!corrupt) return { bytes, inspection, repaired: false };
  // best effort: a file the strict reader opens stays acceptable as it is when the rebuild is refused
  const rebuilt = await deps.repair(bytes).catch(() => undefined);
  return rebuilt ? { bytes: rebuilt, inspection: inspectPdf(rebuilt), repaired: true } : { bytes, inspection, repaired: false };
}
