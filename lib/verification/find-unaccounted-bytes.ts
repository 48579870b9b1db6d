import { PDFContext, PDFDict, PDFName, PDFNumber } from "pdf-lib";
import { type LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { PdfObjectParser, bytesStartWith, isWhitespace } from "@/lib/pdf/parse-pdf-object";
import type { Revision } from "./read-revisions";

const MAX_ITEMS = 1_000_000;

export type UnaccountedBytes = { offset: number; reason: string };

/**
 * Walks the bytes after `from` (the end of a signed revision) and accounts for each of them: objects
 * that a later cross-reference section lists at exactly that offset, cross-reference sections of the
 * /Prev chain, startxref lines, whitespace and comments. Anything else (objects appended without a
 * cross-reference entry, which repairing readers would still display, or stray bytes) is reported.
 */
export function findUnaccountedBytes(bytes: Uint8Array, from: number, later: Revision[], finalPdf: LazyPdf): UnaccountedBytes | undefined {
  const listed = new Map<number, number>();
  const sections = new Set<number>();
  for (const revision of later) {
    sections.add(revision.sectionOffset);
    for (const [num, entry] of revision.entries) if (entry.type === 1) listed.set(entry.offset, num);
  }
  for (const section of finalPdf.sections) {
    sections.add(section.offset);
    if (section.hybrid) sections.add(section.hybrid.offset);
  }
  const parser = new PdfObjectParser(bytes, PDFContext.create(), from);
  for (let items = 0; items < MAX_ITEMS; items++) {
    parser.skipWhitespace();
    const at = parser.pos;
    if (at >= bytes.length) return undefined;
    try {
      if (bytesStartWith(bytes, at, "xref")) {
        if (!sections.has(at)) return { offset: at, reason: "a cross-reference table outside the revision chain" };
        const trailer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf("trailer", at, "latin1");
        if (trailer === -1) return { offset: at, reason: "a cross-reference table without trailer" };
        parser.pos = trailer + "trailer".length;
        if (!(parser.parseValue() instanceof PDFDict)) return { offset: at, reason: "a trailer that is not a dictionary" };
        continue;
      }
      if (bytesStartWith(bytes, at, "startxref")) {
        parser.pos = at + "startxref".length;
        if (parser.readUnsignedInt() === undefined) return { offset: at, reason: "a startxref without offset" };
        continue;
      }
      const header = parser.readObjectHeader();
      if (listed.get(at) !== header.num && !sections.has(at)) {
        return { offset: at, reason: `object ${header.num} was appended without a cross-reference entry` };
      }
      const value = parser.parseValue();
      parser.skipWhitespace();
      if (value instanceof PDFDict && bytesStartWith(bytes, parser.pos, "stream")) skipStream(parser, value, finalPdf);
      parser.skipWhitespace();
      if (!bytesStartWith(bytes, parser.pos, "endobj")) return { offset: at, reason: `object ${header.num} does not end with endobj` };
      parser.pos += "endobj".length;
    } catch {
      return { offset: at, reason: "bytes that are not part of any revision" };
    }
  }
  return { offset: parser.pos, reason: "too many items after the signature" };
}

function skipStream(parser: PdfObjectParser, dict: PDFDict, pdf: LazyPdf): void {
  const bytes = parser.bytes;
  let start = parser.pos + "stream".length;
  if (bytes[start] === 0x0d) start++;
  if (bytes[start] === 0x0a) start++;
  const length = pdf.lookup(dict.get(PDFName.of("Length")));
  if (!(length instanceof PDFNumber) || !Number.isSafeInteger(length.asNumber()) || length.asNumber() < 0) throw new Error("stream without length");
  let after = start + length.asNumber();
  while (after < bytes.length && isWhitespace(bytes[after])) after++;
  if (!bytesStartWith(bytes, after, "endstream")) throw new Error("stream length does not reach endstream");
  parser.pos = after + "endstream".length;
}
