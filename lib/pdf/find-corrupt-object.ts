import { PdfError } from "@/lib/pdf/errors";
import { LazyPdf, openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { refOf } from "@/lib/pdf/parse-pdf-object";
import { objectSyntaxIsPlain } from "@/lib/pdf/scan-object-syntax";

/**
 * The first object the cross-reference data lists that does not parse (garbage where `R` was
 * expected, a header that names another object, a stream whose /Length misses `endstream`), as a
 * reason, or undefined. The signing engine reads only the objects it needs, so damage elsewhere
 * would otherwise be carried into a signed base that other readers (PDFBox) cannot open. Streams are
 * delimited, not decoded; object streams are decoded on the document's budget. A plain object whose
 * syntax alone shows it parses is not built (scan-object-syntax.ts); `parserOnly` builds every one,
 * as the reference of the differential test.
 */
export function findCorruptObject(bytes: Uint8Array, { parserOnly = false } = {}): string | undefined {
  const pdf = openLazyPdf(bytes);
  const checked = new Set<number>();
  // the objects the xref lists (not 1../Size: a /Size of millions over a tiny table costs nothing here)
  const sections = pdf.sections.flatMap((s) => (s.hybrid ? [s, s.hybrid] : [s]));
  // qpdf accepts such a table with a warning, and the signed output would carry it on
  const irregular = sections.find((section) => section.irregularEntries);
  if (irregular) return `xref table at ${irregular.offset}: entries are not 20 bytes each`;
  for (const section of sections) {
    for (const [num] of section.entries()) {
      if (checked.has(num) || num === 0) continue;
      // beyond this many objects the check stops; the strict reader's refusals still apply
      if (checked.size >= MAX_CHECKED_OBJECTS) return undefined;
      checked.add(num);
      const reason = parseFailure(pdf, num, parserOnly);
      if (reason) return reason;
    }
  }
  return undefined;
}

const MAX_CHECKED_OBJECTS = 1_000_000;

/** Why the object the newest xref entry for `num` points at does not parse, or undefined. */
function parseFailure(pdf: LazyPdf, num: number, parserOnly: boolean): string | undefined {
  const entry = pdf.findEntry(num);
  if (!entry || entry.type === 0) return undefined;
  // most objects are plainly well formed: their syntax is checked without building them
  if (!parserOnly && entry.type === 1 && objectSyntaxIsPlain(pdf, num, entry.offset, entry.gen)) return undefined;
  try {
    pdf.getObject(refOf(num, entry.type === 1 ? entry.gen : 0), false);
    return undefined;
  } catch (error) {
    // a resource limit is not damage: the strict reader's own refusals keep applying
    if (error instanceof PdfError && error.code !== "INVALID_PDF") throw error;
    if (error instanceof RangeError) throw error;
    return `object ${num}: ${error instanceof PdfError ? String(error.details?.reason ?? error.message) : (error as Error).message}`;
  }
}
