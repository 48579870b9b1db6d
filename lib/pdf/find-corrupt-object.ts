import { PDFRef } from "pdf-lib";
import { PdfError } from "@/lib/pdf/errors";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";

/**
 * The first object the cross-reference data lists that does not parse (garbage where `R` was
 * expected, a header that names another object, a stream whose /Length misses `endstream`), as a
 * reason, or undefined. The signing engine reads only the objects it needs, so damage elsewhere
 * would otherwise be carried into a signed base that other readers (PDFBox) cannot open. Streams are
 * delimited, not decoded; object streams are decoded on the document's budget.
 */
export function findCorruptObject(bytes: Uint8Array): string | undefined {
  const pdf = openLazyPdf(bytes);
  for (let num = 1; num < pdf.size; num++) {
    const entry = pdf.findEntry(num);
    if (!entry || entry.type === 0) continue;
    try {
      pdf.getObject(PDFRef.of(num, entry.type === 1 ? entry.gen : 0), false);
    } catch (error) {
      // a resource limit is not damage: the strict reader's own refusals keep applying
      if (error instanceof PdfError && error.code !== "INVALID_PDF") throw error;
      if (error instanceof RangeError) throw error;
      return `object ${num}: ${error instanceof PdfError ? String(error.details?.reason ?? error.message) : (error as Error).message}`;
    }
  }
  return undefined;
}
