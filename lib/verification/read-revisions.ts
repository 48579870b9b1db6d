import { PDFRef, type PDFObject } from "pdf-lib";
import { tooComplex } from "@/lib/pdf/errors";
import { type LazyPdf, openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import type { XrefEntry, XrefSection } from "@/lib/pdf/read-xref-sections";

// Revisions we are prepared to compare one by one (each is one signature, DSS or time-stamp in practice).
const MAX_REVISIONS = 256;

/** One incremental revision: its cross-reference section and the file prefix that ends with it. */
export type Revision = {
  /** 0 for the original document. */
  index: number;
  sectionOffset: number;
  /** Offset just past this revision's "%%EOF" (and its end-of-line). */
  end: number;
  /** Objects the revision's cross-reference section lists (the hybrid /XRefStm part included). */
  entries: Array<[number, XrefEntry]>;
  /** The document as it was when this revision was the last one. */
  state: () => LazyPdf;
};

/**
 * Splits the file into the revisions its startxref → /Prev chain describes, oldest first. A revision
 * ends at the "startxref <its section> %%EOF" that follows its section.
 */
export function readRevisions(bytes: Uint8Array, pdf: LazyPdf): Revision[] {
  const chain = [...pdf.sections].reverse();
  if (chain.length > MAX_REVISIONS) throw tooComplex("too many revisions to compare");
  const revisions: Revision[] = [];
  let pending: Array<[number, XrefEntry]> = [];
  chain.forEach((section, position) => {
    const last = position === chain.length - 1;
    // a section found a few bytes from its stated offset is still named by its stated offset in startxref
    const found = findRevisionEnd(bytes, section.statedOffset ?? section.offset);
    const end = last && found === -1 ? bytes.length : found;
    // a section no startxref names (the main table of a linearized file) belongs to the next revision
    if (end === -1) {
      pending = [...pending, ...listedEntries(section)];
      return;
    }
    const entries = new Map([...pending, ...listedEntries(section)]);
    pending = [];
    let state: LazyPdf | undefined;
    revisions.push({
      index: revisions.length,
      sectionOffset: section.offset,
      end,
      entries: [...entries],
      // earlier revisions draw on the same decode budget as the whole file
      state: () => (state ??= last ? pdf : openLazyPdf(bytes.subarray(0, end), pdf.shared)),
    });
  });
  return revisions;
}

function listedEntries(section: XrefSection): Array<[number, XrefEntry]> {
  const entries = new Map(section.hybrid ? section.hybrid.entries() : []);
  for (const [num, entry] of section.entries()) if (entry.type !== 0 || !entries.has(num)) entries.set(num, entry);
  return [...entries];
}

const latin = (s: string) => Buffer.from(s, "latin1");

/** End of the "startxref N %%EOF" line that names `sectionOffset`, or -1 when the file has none. */
export function findRevisionEnd(bytes: Uint8Array, sectionOffset: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const needle = latin("startxref");
  let at = buffer.indexOf(needle, sectionOffset);
  while (at !== -1) {
    const match = /^startxref[\r\n\t \f\0]+(\d{1,15})[\r\n\t \f\0]+%%EOF(\r\n|\r|\n)?/.exec(buffer.toString("latin1", at, Math.min(buffer.length, at + 64)));
    if (match && Number(match[1]) === sectionOffset) return at + match[0].length;
    at = buffer.indexOf(needle, at + 1);
  }
  return -1;
}

/** The cross-reference entry a conforming reader uses for `num` in `pdf` (newest section first). */
export function entryOf(pdf: LazyPdf, num: number): XrefEntry | undefined {
  return pdf.findEntry(num);
}

/** Object `num` as `pdf` resolves it, or undefined when free or unreadable (unreadable is a change too). */
export function objectIn(pdf: LazyPdf, num: number): PDFObject | undefined | "unreadable" {
  try {
    return pdf.getObject(PDFRef.of(num, 0));
  } catch {
    return "unreadable";
  }
}
