import {
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObject,
  PDFRef,
  PDFString,
} from "pdf-lib";
import { invalidPdf, tooComplex } from "@/lib/pdf/errors";

// Hostile files nest arrays 100k deep; real documents stay far below this.
const MAX_DEPTH = 64;

const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of "()<>[]{}/%") DELIMITER[c.charCodeAt(0)] = 1;

export function isWhitespace(c: number): boolean {
  return WHITESPACE[c] === 1;
}

function isRegular(c: number): boolean {
  return WHITESPACE[c] === 0 && DELIMITER[c] === 0;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// Below this length a character loop beats a Buffer view (~70 against ~240 ns for a PDF token).
const SHORT_TOKEN = 32;

function latin1(bytes: Uint8Array, start: number, end: number): string {
  // one code point per byte, as String.fromCharCode
  if (end - start <= SHORT_TOKEN) {
    let text = "";
    for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

/*
 * Per-thread pools of the parsed objects that repeat. PDFNumber never changes after construction
 * and formats its text when built, so small integers are shared; PDFName.of decodes #xx escapes
 * with a regular expression on every call, so a raw name maps to its (already pooled) PDFName.
 * Both pools are bounded: a hostile file cannot grow them.
 */
const SHARED_INTEGERS = 4096;
const integers: PDFNumber[] = [];
const MAX_NAMES = 8192;
const names = new Map<string, PDFName>();
const zeroGenerationRefs: PDFRef[] = [];
const SHARED_REFS = 1 << 20;

function integerNumber(value: number): PDFNumber {
  if (value < 0 || value >= SHARED_INTEGERS) return PDFNumber.of(value);
  return (integers[value] ??= PDFNumber.of(value));
}

function nameOf(raw: string): PDFName {
  let name = names.get(raw);
  if (!name) {
    name = PDFName.of(raw);
    if (names.size < MAX_NAMES) names.set(raw, name);
  }
  return name;
}

export function refOf(num: number, gen: number): PDFRef {
  // PDFRef.of pools by a formatted "n g R" string; generation 0 is nearly every reference
  if (gen !== 0 || num >= SHARED_REFS) return PDFRef.of(num, gen);
  return (zeroGenerationRefs[num] ??= PDFRef.of(num, 0));
}

// ISO 32000 Annex C: 8,388,607 indirect objects is the interoperable maximum.
export const MAX_OBJECT_NUMBER = 8_388_607;

/**
 * Tokenizer + object parser over the original bytes (never copied). Produces pdf-lib objects so that
 * rewritten objects serialize with pdf-lib's writers; literal strings keep their raw escaped bytes
 * so they round-trip byte-for-byte.
 */
export class PdfObjectParser {
  pos: number;
  /**
   * Highest object number up to the PDF limit that a reference parsed so far names (new objects are
   * numbered above it; a reference beyond the limit can never meet one of ours).
   */
  highestReference = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly context: PDFContext,
    start = 0,
  ) {
    this.pos = start;
  }

  skipWhitespace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (WHITESPACE[c]) this.pos++;
      else if (c === 0x25 /* % */) {
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  /** Reads a run of regular characters (a keyword or number) without interpreting it. */
  readWord(): string {
    this.skipWhitespace();
    const start = this.pos;
    while (this.pos < this.bytes.length && isRegular(this.bytes[this.pos])) this.pos++;
    return latin1(this.bytes, start, this.pos);
  }

  /** Non-negative integer or undefined (position restored when absent). */
  readUnsignedInt(): number | undefined {
    this.skipWhitespace();
    const start = this.pos;
    let value = 0;
    while (this.pos < this.bytes.length && isDigit(this.bytes[this.pos])) {
      value = value * 10 + (this.bytes[this.pos] - 0x30);
      this.pos++;
    }
    if (this.pos === start || this.pos - start > 15 || (this.pos < this.bytes.length && isRegular(this.bytes[this.pos]))) {
      this.pos = start;
      return undefined;
    }
    return value;
  }

  expectKeyword(word: string): void {
    const got = this.readWord();
    if (got !== word) throw invalidPdf(`expected '${word}' at ${this.pos}, got '${got.slice(0, 20)}'`);
  }

  /** Parses "num gen obj" and returns the numbers. */
  readObjectHeader(): { num: number; gen: number } {
    const num = this.readUnsignedInt();
    const gen = this.readUnsignedInt();
    if (num === undefined || gen === undefined) throw invalidPdf(`no object header at ${this.pos}`);
    this.expectKeyword("obj");
    return { num, gen };
  }

  parseValue(depth = 0): PDFObject {
    if (depth > MAX_DEPTH) throw tooComplex("objects nested too deeply");
    this.skipWhitespace();
    const b = this.bytes;
    if (this.pos >= b.length) throw invalidPdf("unexpected end of file inside an object");
    const c = b[this.pos];
    if (c === 0x2f /* / */) return this.parseName();
    if (c === 0x28 /* ( */) return this.parseLiteralString();
    if (c === 0x3c /* < */) {
      return b[this.pos + 1] === 0x3c ? this.parseDict(depth) : this.parseHexString();
    }
    if (c === 0x5b /* [ */) return this.parseArray(depth);
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) return this.parseNumberOrRef();
    const word = this.readWord();
    if (word === "true") return PDFBool.True;
    if (word === "false") return PDFBool.False;
    if (word === "null") return PDFNull;
    throw invalidPdf(`unexpected token '${word.slice(0, 20) || String.fromCharCode(c)}' at ${this.pos}`);
  }

  private parseName(): PDFName {
    const start = ++this.pos;
    while (this.pos < this.bytes.length && isRegular(this.bytes[this.pos])) this.pos++;
    // PDFName.of decodes #xx escapes and re-encodes when writing
    return nameOf(latin1(this.bytes, start, this.pos));
  }

  private parseLiteralString(): PDFString {
    const b = this.bytes;
    const start = ++this.pos;
    let nesting = 1;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 0x5c /* \ */) this.pos += 2;
      else {
        if (c === 0x28) nesting++;
        else if (c === 0x29 && --nesting === 0) break;
        this.pos++;
      }
    }
    if (nesting !== 0 || this.pos >= b.length) throw invalidPdf("unterminated string");
    const raw = latin1(b, start, this.pos);
    this.pos++;
    return PDFString.of(raw);
  }

  private parseHexString(): PDFHexString {
    const b = this.bytes;
    const start = ++this.pos;
    while (this.pos < b.length && b[this.pos] !== 0x3e) this.pos++;
    if (this.pos >= b.length) throw invalidPdf("unterminated hex string");
    const raw = latin1(b, start, this.pos).replace(/[\s\0]/g, "");
    this.pos++;
    if (!/^[0-9A-Fa-f]*$/.test(raw)) throw invalidPdf("bad hex string");
    return PDFHexString.of(raw);
  }

  private parseDict(depth: number): PDFDict {
    this.pos += 2;
    const map = new Map<PDFName, PDFObject>();
    for (;;) {
      this.skipWhitespace();
      const b = this.bytes;
      if (this.pos >= b.length) throw invalidPdf("unterminated dictionary");
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return PDFDict.fromMapWithContext(map, this.context);
      }
      if (b[this.pos] !== 0x2f) throw invalidPdf(`dictionary key is not a name at ${this.pos}`);
      const key = this.parseName();
      const value = this.parseValue(depth + 1);
      // a null value means the key is absent (ISO 32000 7.3.7)
      if (value !== PDFNull) map.set(key, value);
    }
  }

  private parseArray(depth: number): PDFArray {
    this.pos++;
    const array = PDFArray.withContext(this.context);
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.bytes.length) throw invalidPdf("unterminated array");
      if (this.bytes[this.pos] === 0x5d) {
        this.pos++;
        return array;
      }
      array.push(this.parseValue(depth + 1));
    }
  }

  private parseNumberOrRef(): PDFObject {
    const b = this.bytes;
    const start = this.pos;
    // digits alone are read as they are scanned: most numbers in a PDF are integers
    let integer = 0;
    while (this.pos < b.length && isDigit(b[this.pos])) integer = integer * 10 + (b[this.pos++] - 0x30);
    const digits = this.pos - start;
    while (this.pos < b.length && (isDigit(b[this.pos]) || b[this.pos] === 0x2e || b[this.pos] === 0x2b || b[this.pos] === 0x2d)) {
      this.pos++;
    }
    if (digits === this.pos - start && digits >= 1 && digits <= 10) {
      const afterFirst = this.pos;
      const gen = this.readUnsignedInt();
      if (gen !== undefined) {
        this.skipWhitespace();
        if (b[this.pos] === 0x52 /* R */ && (this.pos + 1 >= b.length || !isRegular(b[this.pos + 1]))) {
          this.pos++;
          if (integer > this.highestReference && integer <= MAX_OBJECT_NUMBER) this.highestReference = integer;
          return refOf(integer, gen);
        }
      }
      this.pos = afterFirst;
      return integerNumber(integer);
    }
    const value = parseFloat(latin1(b, start, this.pos));
    return PDFNumber.of(Number.isFinite(value) ? value : 0);
  }
}

/** True when bytes at `pos` spell `word` (ASCII). */
export function bytesStartWith(bytes: Uint8Array, pos: number, word: string): boolean {
  if (pos < 0 || pos + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[pos + i] !== word.charCodeAt(i)) return false;
  return true;
}

export { latin1 as bytesToLatin1 };
