import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFRawStream } from "pdf-lib";
import { type DecodeBudget, decodeStream } from "@/lib/pdf/decode-stream";
import { invalidPdf, numberingBeyondLimit, tooComplex } from "@/lib/pdf/errors";
import { MAX_OBJECT_NUMBER, PdfObjectParser, bytesStartWith, isWhitespace } from "@/lib/pdf/parse-pdf-object";

export { MAX_OBJECT_NUMBER };
const MAX_SECTIONS = 4096;
// how far a tolerant reader looks for a section its offset misses (writers that are a few bytes off)
export const MAX_OFFSET_SHIFT = 64;

export type XrefEntry =
  | { type: 0 }
  | { type: 1; offset: number; gen: number }
  | { type: 2; stream: number; index: number };

export interface XrefSection {
  kind: "table" | "stream";
  offset: number;
  trailer: PDFDict;
  lookup(num: number): XrefEntry | undefined;
  /** Every object number this section lists, with its entry (the verifier reads what each revision changed). */
  entries(): Array<[number, XrefEntry]>;
  /** For hybrid files: the /XRefStm section consulted after this table and before /Prev. */
  hybrid?: XrefSection;
  /** Where the file said the section was, when a tolerant read found it a few bytes away. */
  statedOffset?: number;
  /** A table whose entries are not all 20 bytes (a byte lost or added): readers accept it with a warning. */
  irregularEntries?: boolean;
}

interface TableSubsection {
  first: number;
  count: number;
  entriesOffset: number;
  parsed?: Map<number, XrefEntry>;
}

function readFixedEntry(bytes: Uint8Array, at: number): XrefEntry | undefined {
  let offset = 0;
  let gen = 0;
  for (let i = 0; i < 10; i++) {
    const c = bytes[at + i] - 0x30;
    if (c < 0 || c > 9) return undefined;
    offset = offset * 10 + c;
  }
  if (bytes[at + 10] !== 0x20) return undefined;
  for (let i = 11; i < 16; i++) {
    const c = bytes[at + i] - 0x30;
    if (c < 0 || c > 9) return undefined;
    gen = gen * 10 + c;
  }
  const kind = bytes[at + 17];
  if (bytes[at + 16] !== 0x20 || (kind !== 0x6e && kind !== 0x66)) return undefined;
  return kind === 0x6e ? { type: 1, offset, gen } : { type: 0 };
}

function parseTableSection(bytes: Uint8Array, context: PDFContext, offset: number): XrefSection {
  const parser = new PdfObjectParser(bytes, context, offset);
  parser.expectKeyword("xref");
  const subsections: TableSubsection[] = [];
  for (;;) {
    parser.skipWhitespace();
    if (bytesStartWith(bytes, parser.pos, "trailer")) break;
    const first = parser.readUnsignedInt();
    const count = parser.readUnsignedInt();
    if (first === undefined || count === undefined) throw invalidPdf(`bad xref subsection at ${parser.pos}`);
    if (first + count > MAX_OBJECT_NUMBER + 1) throw numberingBeyondLimit("object number beyond the PDF limit");
    parser.skipWhitespace();
    const entriesOffset = parser.pos;
    if (count * 18 > bytes.length - entriesOffset) throw invalidPdf("xref subsection longer than the file");
    const sub: TableSubsection = { first, count, entriesOffset };
    // Fast path: 20-byte entries are looked up on demand without parsing the whole table.
    const fixed = count === 0 || (readFixedEntry(bytes, entriesOffset) !== undefined && readFixedEntry(bytes, entriesOffset + 20 * (count - 1)) !== undefined);
    let end = entriesOffset + 20 * count;
    if (fixed) {
      while (end < bytes.length && isWhitespace(bytes[end])) end++;
    }
    if (!fixed || !(bytesStartWith(bytes, end, "trailer") || (bytes[end] >= 0x30 && bytes[end] <= 0x39))) {
      sub.parsed = new Map();
      parser.pos = entriesOffset;
      for (let i = 0; i < count; i++) {
        const entryOffset = parser.readUnsignedInt();
        const gen = parser.readUnsignedInt();
        const kind = parser.readWord();
        if (entryOffset === undefined || gen === undefined || (kind !== "n" && kind !== "f")) {
          throw invalidPdf("invalid xref table entry");
        }
        sub.parsed.set(first + i, kind === "n" ? { type: 1, offset: entryOffset, gen } : { type: 0 });
      }
      end = parser.pos;
    }
    parser.pos = end;
    subsections.push(sub);
  }
  parser.expectKeyword("trailer");
  const trailer = parser.parseValue();
  if (!(trailer instanceof PDFDict)) throw invalidPdf("trailer is not a dictionary");
  return {
    kind: "table",
    offset,
    trailer,
    irregularEntries: subsections.some((sub) => sub.parsed !== undefined),
    lookup(num) {
      // later subsections win when a broken writer repeats an object
      for (let i = subsections.length - 1; i >= 0; i--) {
        const sub = subsections[i];
        if (num < sub.first || num >= sub.first + sub.count) continue;
        if (sub.parsed) return sub.parsed.get(num);
        const entry = readFixedEntry(bytes, sub.entriesOffset + 20 * (num - sub.first));
        if (!entry) throw invalidPdf("invalid xref table entry");
        return entry;
      }
      return undefined;
    },
    entries() {
      const listed = new Map<number, XrefEntry>();
      for (const sub of subsections) {
        for (let num = sub.first; num < sub.first + sub.count; num++) {
          const entry = sub.parsed ? sub.parsed.get(num) : readFixedEntry(bytes, sub.entriesOffset + 20 * (num - sub.first));
          if (!entry) throw invalidPdf("invalid xref table entry");
          listed.set(num, entry);
        }
      }
      return [...listed];
    },
  };
}

function intArray(obj: unknown): number[] | undefined {
  if (!(obj instanceof PDFArray)) return undefined;
  const values = obj.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : NaN));
  return values.every((v) => Number.isInteger(v) && v >= 0) ? values : undefined;
}

function parseStreamSection(
  bytes: Uint8Array,
  context: PDFContext,
  offset: number,
  readStream: (parser: PdfObjectParser, dict: PDFDict) => PDFRawStream,
  budget: DecodeBudget,
): XrefSection {
  const parser = new PdfObjectParser(bytes, context, offset);
  parser.readObjectHeader();
  const dict = parser.parseValue();
  if (!(dict instanceof PDFDict)) throw invalidPdf("xref stream without dictionary");
  if (dict.get(PDFName.of("Type")) !== PDFName.of("XRef")) throw invalidPdf("startxref does not point to an xref");
  const stream = readStream(parser, dict);
  const data = decodeStream(dict, stream.getContents(), budget);
  const w = intArray(dict.get(PDFName.of("W")));
  const size = dict.get(PDFName.of("Size"));
  if (!w || w.length !== 3 || w.some((v) => v > 8) || !(size instanceof PDFNumber)) throw invalidPdf("bad xref stream /W or /Size");
  const rowSize = w[0] + w[1] + w[2];
  const index = intArray(dict.get(PDFName.of("Index"))) ?? [0, size.asNumber()];
  if (index.length % 2 !== 0 || rowSize === 0) throw invalidPdf("bad xref stream /Index");
  const ranges: { first: number; count: number; row: number }[] = [];
  let row = 0;
  for (let i = 0; i < index.length; i += 2) {
    if (index[i] + index[i + 1] > MAX_OBJECT_NUMBER + 1) throw numberingBeyondLimit("object number beyond the PDF limit");
    ranges.push({ first: index[i], count: index[i + 1], row });
    row += index[i + 1];
  }
  const field = (at: number, width: number, fallback: number): number => {
    if (width === 0) return fallback;
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 256 + data[at + i];
    return v;
  };
  return {
    kind: "stream",
    offset,
    trailer: dict,
    lookup(num) {
      for (const r of ranges) {
        if (num < r.first || num >= r.first + r.count) continue;
        const at = (r.row + num - r.first) * rowSize;
        if (at + rowSize > data.length) return undefined;
        const type = field(at, w[0], 1);
        const a = field(at + w[0], w[1], 0);
        const b = field(at + w[0] + w[1], w[2], 0);
        if (type === 1) return { type: 1, offset: a, gen: b };
        if (type === 2) return { type: 2, stream: a, index: b };
        return { type: 0 };
      }
      return undefined;
    },
    entries() {
      const listed: Array<[number, XrefEntry]> = [];
      for (const r of ranges) {
        for (let num = r.first; num < r.first + r.count; num++) {
          const entry = this.lookup(num);
          if (entry) listed.push([num, entry]);
        }
      }
      return listed;
    },
  };
}

function parseSectionAt(
  bytes: Uint8Array,
  context: PDFContext,
  offset: number,
  readStream: (parser: PdfObjectParser, dict: PDFDict) => PDFRawStream,
  budget: DecodeBudget,
): XrefSection {
  if (offset < 0 || offset >= bytes.length) throw invalidPdf("xref offset outside the file");
  if (bytesStartWith(bytes, offset, "xref")) return parseTableSection(bytes, context, offset);
  return parseStreamSection(bytes, context, offset, readStream, budget);
}

/**
 * Follows startxref and the /Prev chain, newest section first. Refuses (never repairs) anything
 * that does not resolve exactly: a repaired file would be rewritten, which destroys earlier signatures.
 */
export function readXrefSections(
  bytes: Uint8Array,
  context: PDFContext,
  startxref: number,
  readStream: (parser: PdfObjectParser, dict: PDFDict) => PDFRawStream,
  budget: DecodeBudget,
  known: Map<number, XrefSection> = new Map(),
  /** Given: a tolerant read that looks near a wrong section offset and records what it found here. */
  repairs?: Set<string>,
): XrefSection[] {
  // a section already read for another view of the same bytes is the same section
  const sectionAt = (offset: number) => {
    let section = known.get(offset);
    if (!section) known.set(offset, (section = repairs ? parseShiftedSection(offset) : parseSectionAt(bytes, context, offset, readStream, budget)));
    return section;
  };
  // readers (pdfsig, PDFBox, EU DSS) find a section a few bytes from where the offset says; so does a tolerant view, and says so
  const parseShiftedSection = (offset: number): XrefSection => {
    try {
      return parseSectionAt(bytes, context, offset, readStream, budget);
    } catch (error) {
      for (let shift = 1; shift <= MAX_OFFSET_SHIFT; shift++) {
        for (const at of [offset - shift, offset + shift]) {
          if (at < 0 || at >= bytes.length || !(bytesStartWith(bytes, at, "xref") || (bytes[at] >= 0x30 && bytes[at] <= 0x39 && !(bytes[at - 1] >= 0x30 && bytes[at - 1] <= 0x39)))) continue;
          try {
            const section = parseSectionAt(bytes, context, at, readStream, budget);
            section.statedOffset = offset;
            repairs!.add(`la tabla de referencias cruzadas está en el byte ${at}, no en el ${offset} que indica el archivo`);
            return section;
          } catch {
            // not a section here either
          }
        }
      }
      throw error;
    }
  };
  const sections: XrefSection[] = [];
  const seen = new Set<number>();
  let next: number | undefined = startxref;
  while (next !== undefined) {
    if (seen.has(next)) throw invalidPdf("/Prev chain loops");
    if (sections.length >= MAX_SECTIONS) throw tooComplex("too many xref sections");
    seen.add(next);
    const section = sectionAt(next);
    const xrefStm = section.trailer.get(PDFName.of("XRefStm"));
    if (section.kind === "table" && xrefStm instanceof PDFNumber && !seen.has(xrefStm.asNumber())) {
      seen.add(xrefStm.asNumber());
      section.hybrid = sectionAt(xrefStm.asNumber());
    }
    sections.push(section);
    const prev = section.trailer.get(PDFName.of("Prev"));
    next = prev instanceof PDFNumber ? prev.asNumber() : undefined;
    if (next !== undefined && !Number.isInteger(next)) throw invalidPdf("bad /Prev");
  }
  return sections;
}
