import { PDFContext, PDFDict, PDFName, PDFNumber, PDFNull, PDFObject, PDFRawStream, PDFRef } from "pdf-lib";
import { DecodeBudget, decodeStream } from "@/lib/pdf/decode-stream";
import { PdfError, invalidPdf, numberingBeyondLimit, tooComplex } from "@/lib/pdf/errors";
import { PdfObjectParser, bytesStartWith, bytesToLatin1, isWhitespace } from "@/lib/pdf/parse-pdf-object";
import { MAX_OBJECT_NUMBER, MAX_OFFSET_SHIFT, XrefEntry, XrefSection, readXrefSections } from "@/lib/pdf/read-xref-sections";

const TAIL_WINDOW = 1024;

interface ObjectStreamIndex {
  data: Uint8Array;
  first: number;
  offsets: number[];
}

/**
 * What views of the same bytes (the whole file and its earlier revisions) share: one decode budget,
 * and the xref sections and object streams already decoded, by file offset.
 */
export type SharedReads = {
  budget: DecodeBudget;
  sections: Map<number, XrefSection>;
  objectStreams: Map<number, ObjectStreamIndex>;
  /** Set for a tolerant view (the verifier): offsets a few bytes off are found and each fault is recorded here. */
  repairs?: Set<string>;
};

/**
 * Read-only, lazy view of a PDF: only the trailer chain is parsed up front; objects are parsed on
 * first use, straight from the caller's bytes. Overrides let a later revision see objects that an
 * earlier (not yet written) revision replaced.
 */
export class LazyPdf {
  readonly context = PDFContext.create();
  readonly sections: XrefSection[];
  readonly startxref: number;
  readonly trailer: PDFDict;
  private readonly cache = new Map<number, PDFObject>();
  private readonly overrides = new Map<number, PDFObject>();
  private readonly resolving = new Set<number>();
  /** Highest object number named by a reference in any object read so far (see `IncrementalUpdate.allocate`). */
  highestReference = 0;
  /** Everything this document inflates (xref streams, object streams, what callers read) draws on `shared.budget`. */
  readonly shared: SharedReads;

  constructor(
    readonly bytes: Uint8Array,
    shared?: SharedReads,
  ) {
    if (bytes.length < 16) throw invalidPdf("file too short");
    const header = bytesToLatin1(bytes, 0, Math.min(bytes.length, TAIL_WINDOW)).indexOf("%PDF-");
    // Offsets in a file with leading junk are ambiguous; fixing them would be a repair.
    if (header !== 0) throw invalidPdf(header < 0 ? "no %PDF- header" : "bytes before the %PDF- header");
    this.startxref = findStartxref(bytes);
    this.shared = shared ?? { budget: DecodeBudget.forFile(bytes.length), sections: new Map(), objectStreams: new Map() };
    this.sections = readXrefSections(bytes, this.context, this.startxref, (parser, dict) => this.readStreamBody(parser, dict), this.shared.budget, this.shared.sections, this.shared.repairs);
    this.trailer = this.sections[0].trailer;
    const size = this.trailer.get(PDFName.of("Size"));
    if (!(size instanceof PDFNumber) || !Number.isInteger(size.asNumber()) || size.asNumber() < 1) throw invalidPdf("bad trailer /Size");
    if (size.asNumber() > MAX_OBJECT_NUMBER + 1) throw numberingBeyondLimit("trailer /Size beyond the PDF limit");
  }

  get size(): number {
    let size = (this.trailer.get(PDFName.of("Size")) as PDFNumber).asNumber();
    for (const num of this.overrides.keys()) size = Math.max(size, num + 1);
    return size;
  }

  /** Structural faults a tolerant view read past (empty for a strict one). */
  get repairs(): string[] {
    return [...(this.shared.repairs ?? [])];
  }

  get decodeBudget(): DecodeBudget {
    return this.shared.budget;
  }

  get xrefKind(): "table" | "stream" {
    return this.sections[0].kind;
  }

  get encrypted(): boolean {
    return this.trailer.has(PDFName.of("Encrypt"));
  }

  /** Makes later reads (and the next revision) see `obj` as object `num`. */
  override(num: number, obj: PDFObject): void {
    this.overrides.set(num, obj);
    this.cache.delete(num);
  }

  lookup(obj: PDFObject | undefined): PDFObject | undefined {
    return obj instanceof PDFRef ? this.getObject(obj) : obj;
  }

  lookupDict(obj: PDFObject | undefined): PDFDict | undefined {
    const value = this.lookup(obj);
    return value instanceof PDFDict ? value : undefined;
  }

  /** Resolves an indirect object; `cache: false` for objects visited once (page leaves). */
  getObject(ref: PDFRef, cache = true): PDFObject | undefined {
    const num = ref.objectNumber;
    const overridden = this.overrides.get(num);
    if (overridden) return overridden;
    const cached = this.cache.get(num);
    if (cached) return cached;
    if (this.resolving.has(num)) throw invalidPdf(`object ${num} refers to itself while being read`);
    this.resolving.add(num);
    try {
      const entry = this.findEntry(num);
      let value: PDFObject | undefined;
      if (entry?.type === 1) value = this.readObjectAt(num, entry.offset, entry.gen);
      else if (entry?.type === 2) value = this.readFromObjectStream(num, entry.stream, entry.index);
      if (value === PDFNull) value = undefined;
      if (value && cache) this.cache.set(num, value);
      return value;
    } finally {
      this.resolving.delete(num);
    }
  }

  /** The entry a conforming reader uses for `num`: the newest section that lists it wins. */
  findEntry(num: number): XrefEntry | undefined {
    // sections is still unset while the xref chain itself is read (indirect /Length there is refused)
    for (const section of this.sections ?? []) {
      const entry = section.lookup(num);
      if (entry && entry.type !== 0) return entry;
      // hybrid files list object-stream members as free in the table and in use in /XRefStm
      const fromStream = section.hybrid?.lookup(num);
      if (fromStream && fromStream.type !== 0) return fromStream;
      if (entry || fromStream) return undefined;
    }
    return undefined;
  }

  /**
   * Where object `num` really starts when the cross-reference says `offset`: the same offset, or, for
   * a tolerant view, the nearest "num gen obj" a few bytes away (a writer's off-by-one), recorded.
   */
  locate(num: number, offset: number): number {
    if (this.startsObject(offset, num)) {
      // the header itself, past the whitespace a reader skips
      let at = offset;
      while (at < this.bytes.length && isWhitespace(this.bytes[at])) at++;
      return at;
    }
    if (!this.shared.repairs) return offset;
    for (let shift = 1; shift <= MAX_OFFSET_SHIFT; shift++) {
      for (const at of [offset - shift, offset + shift]) {
        if (at > 0 && at < this.bytes.length && !isDigitAt(this.bytes, at - 1) && this.startsObject(at, num)) {
          this.shared.repairs.add(`el objeto ${num} está en el byte ${at}, no en el ${offset} que indica la tabla de referencias cruzadas`);
          return at;
        }
      }
    }
    return offset;
  }

  private startsObject(at: number, num: number): boolean {
    if (at <= 0 || at >= this.bytes.length) return false;
    try {
      return new PdfObjectParser(this.bytes, this.context, at).readObjectHeader().num === num;
    } catch {
      return false;
    }
  }

  private readObjectAt(num: number, statedOffset: number, gen?: number): PDFObject {
    // only a tolerant view looks elsewhere, and only when the stated offset does not hold the object
    const offset = this.shared.repairs && !this.startsObject(statedOffset, num) ? this.locate(num, statedOffset) : statedOffset;
    if (offset <= 0 || offset >= this.bytes.length) throw invalidPdf(`object ${num} offset outside the file`);
    const parser = new PdfObjectParser(this.bytes, this.context, offset);
    const header = parser.readObjectHeader();
    if (header.num !== num) throw invalidPdf(`xref points object ${num} at object ${header.num}`);
    if (gen !== undefined && header.gen !== gen) throw invalidPdf(`xref gives object ${num} generation ${gen}, the file ${header.gen}`);
    const value = parser.parseValue();
    this.noteReferences(parser);
    if (value instanceof PDFDict) {
      parser.skipWhitespace();
      if (bytesStartWith(this.bytes, parser.pos, "stream")) return this.readStreamBody(parser, value);
    }
    return value;
  }

  private noteReferences(parser: PdfObjectParser): void {
    if (parser.highestReference > this.highestReference) this.highestReference = parser.highestReference;
  }

  /** `parser` stands just after the stream dictionary. */
  private readStreamBody(parser: PdfObjectParser, dict: PDFDict): PDFRawStream {
    const b = this.bytes;
    parser.skipWhitespace();
    if (!bytesStartWith(b, parser.pos, "stream")) throw invalidPdf("expected stream");
    let start = parser.pos + 6;
    if (b[start] === 0x0d) start++;
    if (b[start] === 0x0a) start++;
    const lengthObj = dict.get(PDFName.of("Length"));
    const length = this.lookup(lengthObj);
    if (!(length instanceof PDFNumber) || !Number.isInteger(length.asNumber()) || length.asNumber() < 0) {
      throw invalidPdf("stream without a valid /Length");
    }
    const end = start + length.asNumber();
    if (end > b.length) throw invalidPdf("stream /Length runs past the end of the file");
    let after = end;
    while (after < b.length && isWhitespace(b[after])) after++;
    if (!bytesStartWith(b, after, "endstream")) throw invalidPdf("stream /Length does not end at endstream");
    return PDFRawStream.of(dict, b.subarray(start, end));
  }

  private readFromObjectStream(num: number, streamNum: number, index: number): PDFObject | undefined {
    const objStm = this.loadObjectStream(streamNum);
    if (index >= objStm.offsets.length / 2) throw invalidPdf(`object ${num} not in its object stream`);
    if (objStm.offsets[index * 2] !== num) throw invalidPdf(`object stream ${streamNum} does not hold object ${num}`);
    const parser = new PdfObjectParser(objStm.data, this.context, objStm.first + objStm.offsets[index * 2 + 1]);
    const value = parser.parseValue();
    this.noteReferences(parser);
    return value;
  }

  private loadObjectStream(streamNum: number): ObjectStreamIndex {
    const entry = this.findEntry(streamNum);
    // An object stream inside an object stream is forbidden and is how self-reference bombs recurse.
    if (entry?.type !== 1) throw invalidPdf(`object stream ${streamNum} is not a plain object`);
    // keyed by file offset: the same bytes decode the same way in every view of the file
    const known = this.shared.objectStreams.get(entry.offset);
    if (known) return known;
    const stream = this.readObjectAt(streamNum, entry.offset);
    if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of("Type")) !== PDFName.of("ObjStm")) {
      throw invalidPdf(`object ${streamNum} is not an object stream`);
    }
    const n = stream.dict.get(PDFName.of("N"));
    const first = stream.dict.get(PDFName.of("First"));
    if (!(n instanceof PDFNumber) || !(first instanceof PDFNumber)) throw invalidPdf("object stream without /N or /First");
    const data = decodeStream(stream.dict, stream.getContents(), this.shared.budget);
    if (n.asNumber() * 4 > data.length || first.asNumber() > data.length) throw invalidPdf("bad object stream header");
    const parser = new PdfObjectParser(data, this.context, 0);
    const offsets: number[] = [];
    for (let i = 0; i < n.asNumber(); i++) {
      const objNum = parser.readUnsignedInt();
      const objOffset = parser.readUnsignedInt();
      if (objNum === undefined || objOffset === undefined) throw invalidPdf("bad object stream header");
      offsets.push(objNum, objOffset);
    }
    const index = { data, first: first.asNumber(), offsets };
    this.shared.objectStreams.set(entry.offset, index);
    return index;
  }
}

const isDigitAt = (bytes: Uint8Array, at: number) => bytes[at] >= 0x30 && bytes[at] <= 0x39;

/** Offset given by the last startxref; the file must end with it and %%EOF (plus whitespace). */
function findStartxref(bytes: Uint8Array): number {
  const from = Math.max(0, bytes.length - TAIL_WINDOW);
  const tail = bytesToLatin1(bytes, from, bytes.length);
  const at = tail.lastIndexOf("startxref");
  if (at < 0) throw invalidPdf("no startxref near the end of the file");
  const match = /^startxref[\s]+(\d{1,15})[\s]+%%EOF([\s\0]*)$/.exec(tail.slice(at));
  if (!match) throw invalidPdf("the file does not end with 'startxref N %%EOF'");
  return Number(match[1]);
}

/**
 * `shared`: another view's reads of the same bytes (a view of one of the file's earlier revisions).
 * `tolerant`: find sections and objects a few bytes from their stated offset, as readers do (the verifier only; the engine never signs such a base).
 */
export function openLazyPdf(bytes: Uint8Array, shared?: SharedReads, { tolerant = false } = {}): LazyPdf {
  try {
    return new LazyPdf(bytes, shared ?? (tolerant ? { budget: DecodeBudget.forFile(bytes.length), sections: new Map(), objectStreams: new Map(), repairs: new Set() } : undefined));
  } catch (error) {
    throw asPdfError(error);
  }
}

/** Maps anything thrown while reading untrusted bytes to a typed refusal. */
export function asPdfError(error: unknown): PdfError {
  if (error instanceof PdfError) return error;
  if (error instanceof RangeError) return tooComplex(`resource limit: ${error.message}`);
  return invalidPdf(error instanceof Error ? error.message : String(error));
}
