import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/test/fixtures-dir";
import { openLazyPdf, type LazyPdf } from "./open-lazy-pdf";
import { refOf } from "./parse-pdf-object";
import { objectSyntaxIsPlain } from "./scan-object-syntax";
import { findCorruptObject } from "./find-corrupt-object";
import { seededRandom } from "@/test/seeded-random";

/** What the strict parser says of one plain object: read, or refused (any error: damage or a limit). */
function parserReads(pdf: LazyPdf, num: number, gen: number): boolean {
  try {
    pdf.getObject(refOf(num, gen), false);
    return true;
  } catch {
    return false;
  }
}

function outcome(run: () => string | undefined): string {
  try {
    return `reason: ${run()}`;
  } catch (error) {
    return `thrown: ${(error as Error).message}`;
  }
}

type Tally = { agreed: number; unsure: number; refused: number; cases: number };

/** Every plain object of `bytes`: the scan says "plain" only where the parser reads it; and the whole check answers as the parser alone does. */
function compare(bytes: Uint8Array, tally: Tally): void {
  tally.cases++;
  expect(outcome(() => findCorruptObject(bytes))).toBe(outcome(() => findCorruptObject(bytes, { parserOnly: true })));
  let scanned: LazyPdf;
  let parsed: LazyPdf;
  try {
    scanned = openLazyPdf(bytes);
    parsed = openLazyPdf(bytes);
  } catch {
    return;
  }
  const listed: number[] = [];
  try {
    for (const section of scanned.sections) for (const [num] of section.entries()) listed.push(num);
  } catch {
    // a garbled xref entry: findCorruptObject's own answer was compared above
  }
  {
    for (const num of listed) {
      const entry = scanned.findEntry(num);
      if (entry?.type !== 1) continue;
      const plain = objectSyntaxIsPlain(scanned, num, entry.offset, entry.gen);
      const reads = parserReads(parsed, num, entry.gen);
      if (plain && !reads) throw new Error(`object ${num}: the scan accepts what the parser refuses`);
      if (plain) tally.agreed++;
      else if (reads) tally.unsure++;
      else tally.refused++;
    }
  }
}

/** A one-revision PDF with a classic xref table around the given object bodies (object 1 is the catalog). */
function pdfWith(bodies: string[]): Uint8Array {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>", ...bodies];
  let text = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(text, "latin1"));
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text, "latin1");
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, "latin1"));
}


const PALETTE = [..."()<>[]{}/%\\#R \n\r\t0123456789.-+eEnulftrsamdLgh", "\0", "\x0b", "\xa0", "\x85", "\xff"];
const INSERTS = ["null", "true", "<<", ">>", "0 R", "1 0 R", "stream", "endstream", "/Length", "/Length null", "/Le#6egth 3", "/Le#6Egth 3", "%x\n", "<a\xa0b>", "5.0"];

describe("objectSyntaxIsPlain against the strict parser", () => {
  it.each([
    ["a last non-null /Length", "<< /Length 5 /Length null >>\nstream\nhello\nendstream", true],
    ["a /Length spelled with an escape", "<< /Le#6Egth 5 >>\nstream\nhello\nendstream", true],
    ["a lowercase escape pdf-lib does not decode", "<< /Le#6egth 5 >>\nstream\nhello\nendstream", false],
    ["a /Length that misses endstream", "<< /Length 7 >>\nstream\nhello\nendstream", false],
    ["a /Length written as a real", "<< /Length 5.0 >>\nstream\nhello\nendstream", true],
    ["a /Length of its own object", "<< /Length 3 0 R >>\nstream\nhello\nendstream", false],
    ["a /Length in another object", "<< /Length 4 0 R >>\nstream\nhello\nendstream", true],
    ["a stream without /Length", "<< /Filter /FlateDecode >>\nstream\nhello\nendstream", false],
    ["a hex string with a no-break space", "<ab\xa0cd>", true],
    ["a hex string with a NEL", "<ab\x85cd>", false],
    ["arrays nested past the limit", `${"[".repeat(66)}${"]".repeat(66)}`, false],
    ["arrays nested up to the limit", `${"[".repeat(64)}${"]".repeat(64)}`, true],
    ["a stray closing parenthesis", "<< /A ) >>", false],
    ["a brace", "<< /A { >>", false],
    ["an unknown keyword", "<< /A nul >>", false],
    ["an unterminated dictionary", "<< /A 1 0 R", false],
    ["a reference with a generation", "[1 0 R 2 12 R 3 4 5]", true],
    ["a key that is not a name", "<< (A) 1 >>", false],
    ["a string with escapes and nesting", "(a\\) (b) c)", true],
  ])("%s", (_name, body, reads) => {
    const bytes = pdfWith([body, "5"]);
    const pdf = openLazyPdf(bytes);
    const entry = pdf.findEntry(3)!;
    expect(entry.type).toBe(1);
    const plain = objectSyntaxIsPlain(pdf, 3, (entry as { offset: number }).offset, 0);
    expect(parserReads(openLazyPdf(bytes), 3, 0)).toBe(reads);
    // plain only where the parser reads; unsure (false) is allowed, then the parser decides
    if (!reads) expect(plain).toBe(false);
    compare(bytes, { agreed: 0, unsure: 0, refused: 0, cases: 0 });
  });

  it("says plain for nearly every object of real documents", () => {
    const tally: Tally = { agreed: 0, unsure: 0, refused: 0, cases: 0 };
    for (const name of FIXTURES) compare(new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid", name))), tally);
    expect(tally.refused).toBe(0);
    expect(tally.agreed).toBeGreaterThan(50);
    expect(tally.unsure).toBeLessThan(tally.agreed / 100);
  });

  it("accepts nothing the parser refuses, in thousands of damaged copies", () => {
    const next = seededRandom(40);
    const tally: Tally = { agreed: 0, unsure: 0, refused: 0, cases: 0 };
    for (const name of FIXTURES) {
      const original = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid", name)));
      const pdf = openLazyPdf(original);
      const offsets = pdf.sections.flatMap((s) => [...s.entries()]).flatMap(([, e]) => (e.type === 1 ? [e.offset] : []));
      for (let i = 0; i < 400; i++) {
        const at = offsets[Math.floor(next() * offsets.length)] + Math.floor(next() * 120);
        const copy = Buffer.from(original);
        let bytes: Uint8Array;
        if (next() < 0.75) {
          // same length: every other offset still holds
          for (let n = 1 + Math.floor(next() * 3), k = 0; k < n; k++) copy[Math.min(at + k, copy.length - 1)] = PALETTE[Math.floor(next() * PALETTE.length)].charCodeAt(0);
          bytes = new Uint8Array(copy);
        } else {
          const insert = Buffer.from(INSERTS[Math.floor(next() * INSERTS.length)], "latin1");
          bytes = new Uint8Array(Buffer.concat([copy.subarray(0, at), insert, copy.subarray(at + Math.floor(next() * 3))]));
        }
        compare(bytes, tally);
      }
    }
    // the damage reached the parser: the comparison could have failed
    expect(tally.refused).toBeGreaterThan(300);
    expect(tally.agreed).toBeGreaterThan(tally.refused);
  });
});

// plain objects of several writers: indirect /Length (LibreOffice, Word), pdfTeX, FPDF, qpdf
const FIXTURES = ["libreoffice70-tiny.pdf", "pdf13-fpdf.pdf", "libreoffice74-contrato-a4.pdf", "qpdf-qdf.pdf", "annotations-highlight-word2013.pdf", "cropbox-inside-mediabox.pdf"];
