import { PDFContext, PDFDict, PDFName, PDFNumber } from "pdf-lib";
import { type LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { PdfObjectParser, bytesStartWith, isWhitespace } from "@/lib/pdf/parse-pdf-object";
import type { Revision } from "./read-revisions";

const MAX_ITEMS = 1_000_000;
// the first stray after each signature is what is reported; past this many the walk stops
const MAX_STRAYS = 64;
const RESUME_WINDOW = 1024 * 1024;

export type UnaccountedBytes = { offset: number; reason: string };

/** What the walk found after the earliest signature; each signature asks about the part after its own end. */
export type AppendedScan = { strayAfter(end: number, revisionIndex: number): UnaccountedBytes | undefined };

/**
 * Walks the bytes after `from` (the end of the earliest signed revision) once and accounts for each
 * of them: objects that a cross-reference section lists at exactly that offset, cross-reference
 * sections of the /Prev chain, startxref lines, whitespace and comments. Anything else (objects
 * appended without an entry, which repairing readers would still display, or stray bytes) is stray.
 * For one signature, an object only counts as accounted for when a revision after its own lists it.
 */
export function scanAppendedBytes(bytes: Uint8Array, from: number, revisions: Revision[], finalPdf: LazyPdf): AppendedScan {
  const listedBy = new Map<number, { num: number; revision: number }[]>();
  const sections = new Set<number>();
  for (const revision of revisions) {
    sections.add(revision.sectionOffset);
    for (const [num, entry] of revision.entries) {
      if (entry.type !== 1 || entry.offset < from) continue;
      // an entry a few bytes off (tolerated and reported as a finding) accounts for the object where it really is
      const offset = finalPdf.locate(num, entry.offset);
      const list = listedBy.get(offset) ?? [];
      list.push({ num, revision: revision.index });
      listedBy.set(offset, list);
    }
  }
  for (const section of finalPdf.sections) {
    sections.add(section.offset);
    if (section.hybrid) sections.add(section.hybrid.offset);
  }
  const strays: UnaccountedBytes[] = [];
  const objects: { offset: number; num: number }[] = [];
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const parser = new PdfObjectParser(bytes, PDFContext.create(), Number.isFinite(from) ? from : bytes.length);
  for (let items = 0; items < MAX_ITEMS; items++) {
    parser.skipWhitespace();
    const at = parser.pos;
    if (at >= bytes.length) break;
    const problem = readItem(parser, at, sections, objects, finalPdf);
    if (!problem) continue;
    strays.push({ offset: at, reason: problem });
    if (strays.length >= MAX_STRAYS) break;
    // resume at the next line that starts an object or a cross-reference, as a repairing reader would
    const next = findResume(text, at + 1);
    if (next === undefined) break;
    parser.pos = next;
  }
  return {
    strayAfter(end, revisionIndex) {
      const stray = strays.find((item) => item.offset >= end);
      const unlisted = objects.find((item) => item.offset >= end && !(listedBy.get(item.offset) ?? []).some((entry) => entry.num === item.num && entry.revision > revisionIndex) && !sections.has(item.offset));
      if (unlisted && (!stray || unlisted.offset < stray.offset)) return { offset: unlisted.offset, reason: `object ${unlisted.num} was appended without a cross-reference entry` };
      return stray;
    },
  };
}

/** Offset of the next line start (after CR or LF) that begins an object, an xref table or a startxref. */
function findResume(text: Buffer, from: number): number | undefined {
  for (let start = from; start < text.length; start += RESUME_WINDOW) {
    const window = text.toString("latin1", start, Math.min(text.length, start + RESUME_WINDOW + 64));
    const match = /[\r\n](?=\d+[ \t\r\n]+\d+[ \t\r\n]+obj\b|xref\b|startxref\b)/.exec(window);
    if (match && match.index < RESUME_WINDOW) return start + match.index + 1;
  }
  return undefined;
}

/** Reads one item at `at`; returns why it is not accounted for, or undefined. */
function readItem(parser: PdfObjectParser, at: number, sections: Set<number>, objects: { offset: number; num: number }[], finalPdf: LazyPdf): string | undefined {
  const bytes = parser.bytes;
  try {
    if (bytesStartWith(bytes, at, "xref")) {
      if (!sections.has(at)) return "a cross-reference table outside the revision chain";
      const trailer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf("trailer", at, "latin1");
      if (trailer === -1) return "a cross-reference table without trailer";
      parser.pos = trailer + "trailer".length;
      return parser.parseValue() instanceof PDFDict ? undefined : "a trailer that is not a dictionary";
    }
    if (bytesStartWith(bytes, at, "startxref")) {
      parser.pos = at + "startxref".length;
      return parser.readUnsignedInt() === undefined ? "a startxref without offset" : undefined;
    }
    const header = parser.readObjectHeader();
    objects.push({ offset: at, num: header.num });
    const value = parser.parseValue();
    parser.skipWhitespace();
    if (value instanceof PDFDict && bytesStartWith(bytes, parser.pos, "stream")) skipStream(parser, value, finalPdf);
    parser.skipWhitespace();
    if (!bytesStartWith(bytes, parser.pos, "endobj")) return `object ${header.num} does not end with endobj`;
    parser.pos += "endobj".length;
    return undefined;
  } catch {
    return "bytes that are not part of any revision";
  }
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
