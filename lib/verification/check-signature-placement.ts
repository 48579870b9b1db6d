import { PDFArray, PDFContext, PDFName, PDFNumber, type PDFDict, type PDFRef } from "pdf-lib";
import { PdfObjectParser, bytesStartWith } from "@/lib/pdf/parse-pdf-object";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { entryOf, type Revision } from "./read-revisions";

export type ByteRange = { start1: number; length1: number; start2: number; length2: number; end: number };

export type Placement = { ok: true; range: ByteRange; revision: Revision } | { ok: false; range?: ByteRange; reason: string };

/**
 * The structural checks that make Universal Signature Forgery and Signature Wrapping fail: the
 * ByteRange is [0 b c d] with no overlap and inside the file, it ends exactly where a revision ends,
 * and the gap it leaves is exactly the /Contents hex string of this very signature dictionary, at the
 * offset where the cross-reference of that revision (and of the final file) puts the dictionary.
 */
export function checkSignaturePlacement(bytes: Uint8Array, dict: PDFDict, ref: PDFRef | undefined, revisions: Revision[], finalPdf: LazyPdf): Placement {
  const values = readByteRangeValues(dict);
  if (!values) return { ok: false, reason: "/ByteRange is missing or is not four non-negative integers" };
  const [start1, length1, start2, length2] = values;
  const range: ByteRange = { start1, length1, start2, length2, end: start2 + length2 };
  if (start1 !== 0) return { ok: false, range, reason: "/ByteRange does not start at byte 0" };
  if (length1 === 0 || length2 === 0) return { ok: false, range, reason: "/ByteRange has an empty part" };
  if (start2 <= length1) return { ok: false, range, reason: "/ByteRange parts overlap or leave no room for /Contents" };
  if (range.end > bytes.length) return { ok: false, range, reason: "/ByteRange runs past the end of the file" };
  if (!ref) return { ok: false, range, reason: "the signature dictionary is not an indirect object" };

  const revision = revisions.find((candidate) => endsRevision(bytes, range.end, candidate.end));
  if (!revision) return { ok: false, range, reason: "the signed bytes do not end where a revision of the file ends" };
  const signedEntry = entryOf(revision.state(), ref.objectNumber);
  if (signedEntry?.type !== 1) return { ok: false, range, reason: "the signed revision does not hold the signature dictionary as a plain object" };
  if (signedEntry.gen !== ref.generationNumber) return { ok: false, range, reason: "the signature dictionary's generation does not match its reference" };
  const finalEntry = entryOf(finalPdf, ref.objectNumber);
  if (finalEntry?.type !== 1 || finalEntry.offset !== signedEntry.offset) {
    return { ok: false, range, reason: "a later revision moved or replaced the signature dictionary" };
  }
  const contents = locateContents(bytes, finalPdf.locate(ref.objectNumber, signedEntry.offset), ref.objectNumber);
  if (!contents) return { ok: false, range, reason: "the signature dictionary at its cross-reference offset has no /Contents hex string" };
  if (contents.start !== length1 || contents.end !== start2) {
    return { ok: false, range, reason: "the gap between the byte ranges is not this dictionary's /Contents string" };
  }
  if (finalPdf.locate(ref.objectNumber, signedEntry.offset) >= length1) return { ok: false, range, reason: "the signature dictionary does not start inside the signed bytes" };
  return { ok: true, range, revision };
}

function readByteRangeValues(dict: PDFDict): number[] | undefined {
  const array = dict.get(PDFName.of("ByteRange"));
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const values = array.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN));
  return values.every((value) => Number.isSafeInteger(value) && value >= 0) ? values : undefined;
}

/** A revision written right after %%EOF may or may not sign the end-of-line that follows it. */
function endsRevision(bytes: Uint8Array, signedEnd: number, revisionEnd: number): boolean {
  if (signedEnd > revisionEnd || revisionEnd - signedEnd > 2) return false;
  for (let i = signedEnd; i < revisionEnd; i++) if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) return false;
  return true;
}

/** Byte span of the /Contents value ('<' to '>' inclusive) in the dictionary of object `num` at `offset`. */
function locateContents(bytes: Uint8Array, offset: number, num: number): { start: number; end: number } | undefined {
  try {
    const parser = new PdfObjectParser(bytes, PDFContext.create(), offset);
    if (parser.readObjectHeader().num !== num) return undefined;
    parser.skipWhitespace();
    if (!bytesStartWith(bytes, parser.pos, "<<")) return undefined;
    parser.pos += 2;
    let found: { start: number; end: number } | undefined;
    for (;;) {
      parser.skipWhitespace();
      if (bytesStartWith(bytes, parser.pos, ">>")) return found;
      const key = parser.parseValue();
      parser.skipWhitespace();
      const start = parser.pos;
      parser.parseValue();
      if (key === PDFName.of("Contents")) {
        // a repeated key makes readers disagree about which value counts
        if (found || bytes[start] !== 0x3c) return undefined;
        found = { start, end: parser.pos };
      }
    }
  } catch {
    return undefined;
  }
}
