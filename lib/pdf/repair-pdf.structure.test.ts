import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { PdfError } from "@/lib/pdf/errors";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { type TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { fixturePath } from "@/test/fixtures-dir";

/**
 * Issue 41, damaged files that readers open: broken cross-reference data (xref table, startxref,
 * trailer) and a broken catalog or page tree are repaired the way readers repair them, and the output
 * passes qpdf --check and pdfsig. A file with no page object left is still refused, naming the object.
 */
const ORIGINAL = readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")).toString("latin1");

let pki: TestPki;
let dir: string;
beforeAll(() => {
  pki = createTestPki();
  dir = mkdtempSync(path.join(tmpdir(), "repair-structure-"));
});

/** The fixture with each `[from, to]` replaced once (each `from` must occur). */
function damaged(...edits: Array<[string, string]>): Uint8Array {
  let text = ORIGINAL;
  for (const [from, to] of edits) {
    expect(text.includes(from), from).toBe(true);
    text = text.replace(from, to);
  }
  return new Uint8Array(Buffer.from(text, "latin1"));
}

function run(file: string, tool: "qpdf" | "pdfsig"): { status: number; text: string } {
  const result = spawnSync(tool, tool === "qpdf" ? ["--check", file] : [file], { encoding: "utf8", timeout: 60_000 });
  return { status: result.status ?? 2, text: `${result.stdout}${result.stderr}` };
}

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

const cases: Array<[string, Array<[string, string]>]> = [
  ["junk where startxref's offset belongs", [["startxref\n31554", "startxref\nx1554"]]],
  ["a garbled xref table entry", [["0000019721 00000 n", "00000197z1 00000 n"]]],
  // the strict reader reads such a table tolerantly; signing on top would carry qpdf's warning on
  ["an xref table entry with a digit lost", [["0000019721 00000 n", "000019721 00000 n"]]],
  ["a stray token in the trailer and junk for startxref's offset", [["/Info 21 0 R\n", "/Info 21 0 R\n{"], ["startxref\n31554", "startxref\nx1554"]]],
  ["a page tree node that does not parse", [["<</Type/Pages", "<=/Type/Pages"]]],
  // a flipped byte in one token: read as qpdf reads it, that token as null, the catalog kept
  ["a catalog with one garbled token", [["/XYZ null null 0]", "/XYZ nul\xec null 0]"]]],
];

describe("repairs readers make, and the signed output", () => {
  test.each(cases)("%s: qpdf repairs it; we sign every page, and qpdf --check and pdfsig pass", async (name, edits) => {
    const input = damaged(...edits);
    // the independent judge: qpdf opens it with warnings (exit 3), as a reader would
    expect(run(write(`${name}.pdf`, input), "qpdf").status).toBe(3);
    const accepted = await acceptPdf(input, { repair: repairPdf });
    expect(accepted.repaired).toBe(true);
    expect(accepted.inspection.pageCount).toBe(2);
    const output = write(`${name}-signed.pdf`, await signPdf(accepted.bytes, { sign: pki.sign }));
    const qpdf = run(output, "qpdf");
    expect(qpdf.status, qpdf.text).toBe(0);
    const pdfsig = run(output, "pdfsig");
    expect(pdfsig.text).toMatch(/Signature is Valid/);
  }, 60_000);
});

describe("what no reader can repair is still refused, naming the object", () => {
  test("every page object unparseable (and the tree's node too): refused, naming the node beyond repair", async () => {
    const input = damaged(["1 0 obj\n<</Type/Page", "1 0 obj\n<=/Type/Page"], ["4 0 obj\n<</Type/Page", "4 0 obj\n<=/Type/Page"], ["<</Type/Pages", "<=/Type/Pages"]);
    const refusal = await acceptPdf(input, { repair: repairPdf }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PdfError);
    expect((refusal as PdfError).code).toBe("INVALID_PDF");
    expect((refusal as PdfError).details).toMatchObject({ object: "page tree node 7 0 R", reason: expect.stringMatching(/is beyond repair: no page object is left/) });
  });

  test("a catalog that does not parse (qpdf gives up too): refused, naming the catalog", async () => {
    const input = damaged(["<</Type/Catalog", "<=/Type/Catalog"]);
    expect(run(write("no-catalog.pdf", input), "qpdf").status).toBe(2);
    const refusal = await acceptPdf(input, { repair: repairPdf }).catch((error: unknown) => error);
    expect((refusal as PdfError).code).toBe("INVALID_PDF");
    expect((refusal as PdfError).details).toMatchObject({ object: "catalog 20 0 R" });
  });

  test("a file cut off before its first page object: refused as damaged", async () => {
    const input = new Uint8Array(Buffer.from(ORIGINAL.slice(0, ORIGINAL.indexOf("1 0 obj")), "latin1"));
    const refusal = await acceptPdf(input, { repair: repairPdf }).catch((error: unknown) => error);
    expect((refusal as PdfError).code).toBe("INVALID_PDF");
  });
});
