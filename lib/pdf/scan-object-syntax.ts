import { PDFNumber } from "pdf-lib";
import { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { PdfObjectParser, bytesStartWith, isWhitespace } from "@/lib/pdf/parse-pdf-object";

// the parser's limits and character classes (parse-pdf-object.ts), mirrored
const MAX_DEPTH = 64;
const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const REGULAR = new Uint8Array(256).fill(1);
for (const c of [0, 9, 10, 12, 13, 32]) REGULAR[c] = 0;
for (const c of "()<>[]{}/%") REGULAR[c.charCodeAt(0)] = 0;
// what the parser's hex check lets through: hex digits, and what `/[\s\0]/` strips in latin1
const HEX_OK = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX_OK[c.charCodeAt(0)] = 1;
for (const c of [0, 9, 10, 11, 12, 13, 32, 0xa0]) HEX_OK[c] = 1;
const UNSURE = -1;
const LENGTH = "Length";

/**
 * Whether the strict reader certainly parses the plain (not compressed) object `num` at `offset`,
 * checked on its syntax alone: no pdf-lib object is built. True only when every token is one the
 * parser reads without complaint (and a stream's /Length ends at `endstream`); false means unsure,
 * and the caller asks the parser itself, which then gives the reason or the refusal. So it refuses
 * nothing the parser accepts and accepts nothing the parser refuses (scan-object-syntax.test.ts).
 */
export function objectSyntaxIsPlain(pdf: LazyPdf, num: number, offset: number, gen: number): boolean {
  const b = pdf.bytes;
  // a tolerant view may look for the object elsewhere: only the strict reader is mirrored
  if (pdf.shared.repairs || offset <= 0 || offset >= b.length) return false;
  const header = new PdfObjectParser(b, pdf.context, offset);
  try {
    const found = header.readObjectHeader();
    if (found.num !== num || found.gen !== gen) return false;
  } catch {
    return false;
  }
  const scan = new SyntaxScan(b);
  const first = skip(b, header.pos);
  const isDict = b[first] === 0x3c && b[first + 1] === 0x3c;
  const end = scan.value(header.pos, 0);
  if (end === UNSURE) return false;
  const after = skip(b, end);
  if (!isDict || !bytesStartWith(b, after, "stream")) return true;
  return scan.lengthAt !== undefined && streamEndsAtEndstream(pdf, after, scan.lengthAt);
}

/** The parser's stream check (open-lazy-pdf.ts readStreamBody), its /Length read by the parser itself. */
function streamEndsAtEndstream(pdf: LazyPdf, streamAt: number, lengthAt: number): boolean {
  const b = pdf.bytes;
  let start = streamAt + 6;
  if (b[start] === 0x0d) start++;
  if (b[start] === 0x0a) start++;
  let length;
  try {
    length = pdf.lookup(new PdfObjectParser(b, pdf.context, lengthAt).parseValue());
  } catch {
    return false;
  }
  if (!(length instanceof PDFNumber) || !Number.isInteger(length.asNumber()) || length.asNumber() < 0) return false;
  const end = start + length.asNumber();
  if (end > b.length) return false;
  let at = end;
  while (at < b.length && isWhitespace(b[at])) at++;
  return bytesStartWith(b, at, "endstream");
}

function skip(b: Uint8Array, pos: number): number {
  while (pos < b.length) {
    const c = b[pos];
    if (WHITESPACE[c]) pos++;
    else if (c === 0x25 /* % */) {
      while (pos < b.length && b[pos] !== 0x0a && b[pos] !== 0x0d) pos++;
    } else break;
  }
  return pos;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** One value's extent, position for position as PdfObjectParser reads it, or UNSURE. */
class SyntaxScan {
  /** Where the last non-null /Length value of the outermost dictionary starts (the parser keeps the last one). */
  lengthAt: number | undefined;

  constructor(private readonly b: Uint8Array) {}

  value(from: number, depth: number): number {
    if (depth > MAX_DEPTH) return UNSURE;
    const b = this.b;
    const pos = skip(b, from);
    if (pos >= b.length) return UNSURE;
    const c = b[pos];
    if (c === 0x2f /* / */) return this.name(pos);
    if (c === 0x28 /* ( */) return this.literalString(pos);
    if (c === 0x3c /* < */) return b[pos + 1] === 0x3c ? this.dict(pos, depth) : this.hexString(pos);
    if (c === 0x5b /* [ */) return this.array(pos, depth);
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) return this.numberOrRef(pos);
    const end = this.word(pos);
    return this.isKeyword(pos, end) ? end : UNSURE;
  }

  private word(pos: number): number {
    while (pos < this.b.length && REGULAR[this.b[pos]]) pos++;
    return pos;
  }

  private isKeyword(start: number, end: number): boolean {
    return ["true", "false", "null"].some((w) => end - start === w.length && bytesStartWith(this.b, start, w));
  }

  private name(pos: number): number {
    return this.word(pos + 1);
  }

  private literalString(pos: number): number {
    const b = this.b;
    let nesting = 1;
    pos++;
    while (pos < b.length) {
      const c = b[pos];
      if (c === 0x5c /* \ */) pos += 2;
      else {
        if (c === 0x28) nesting++;
        else if (c === 0x29 && --nesting === 0) break;
        pos++;
      }
    }
    return nesting !== 0 || pos >= b.length ? UNSURE : pos + 1;
  }

  private hexString(pos: number): number {
    const b = this.b;
    pos++;
    while (pos < b.length && b[pos] !== 0x3e) {
      if (!HEX_OK[b[pos]]) return UNSURE;
      pos++;
    }
    return pos >= b.length ? UNSURE : pos + 1;
  }

  private dict(pos: number, depth: number): number {
    const b = this.b;
    pos += 2;
    for (;;) {
      pos = skip(b, pos);
      if (pos >= b.length) return UNSURE;
      if (b[pos] === 0x3e && b[pos + 1] === 0x3e) return pos + 2;
      if (b[pos] !== 0x2f) return UNSURE;
      const keyEnd = this.name(pos);
      let isLength = false;
      if (depth === 0) {
        // a key spelled with #xx escapes may decode to /Length: the parser decides those
        for (let i = pos + 1; i < keyEnd; i++) if (b[i] === 0x23 /* # */) return UNSURE;
        isLength = keyEnd - pos - 1 === LENGTH.length && bytesStartWith(b, pos + 1, LENGTH);
      }
      const valueAt = skip(b, keyEnd);
      const end = this.value(valueAt, depth + 1);
      if (end === UNSURE) return UNSURE;
      if (isLength && !(end - valueAt === 4 && bytesStartWith(b, valueAt, "null"))) this.lengthAt = valueAt;
      pos = end;
    }
  }

  private array(pos: number, depth: number): number {
    const b = this.b;
    pos++;
    for (;;) {
      pos = skip(b, pos);
      if (pos >= b.length) return UNSURE;
      if (b[pos] === 0x5d) return pos + 1;
      pos = this.value(pos, depth + 1);
      if (pos === UNSURE) return UNSURE;
    }
  }

  /** parseNumberOrRef: a number never fails; only where it ends matters. */
  private numberOrRef(start: number): number {
    const b = this.b;
    let pos = start;
    while (pos < b.length && isDigit(b[pos])) pos++;
    const digits = pos - start;
    while (pos < b.length && (isDigit(b[pos]) || b[pos] === 0x2e || b[pos] === 0x2b || b[pos] === 0x2d)) pos++;
    if (digits !== pos - start || digits < 1 || digits > 10) return pos;
    const afterFirst = pos;
    // readUnsignedInt: at most 15 digits, not followed by a regular character
    const genAt = skip(b, pos);
    let at = genAt;
    while (at < b.length && isDigit(b[at])) at++;
    if (at === genAt || at - genAt > 15 || (at < b.length && REGULAR[b[at]])) return afterFirst;
    at = skip(b, at);
    if (b[at] === 0x52 /* R */ && (at + 1 >= b.length || !REGULAR[b[at + 1]])) return at + 1;
    return afterFirst;
  }
}
