import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { PdfError } from "@/lib/pdf/errors";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { damagePdf, damages } from "@/lib/pdf/test-support/damage-pdf";
import { validatePdf } from "@/lib/pdf/test-support/run-validators";
import { fixturePath } from "@/test/fixtures-dir";

const VALID = fixturePath("pdfs/valid");
const SOURCES = [
  "libreoffice70-tiny.pdf",
  "libreoffice74-contrato-a4.pdf",
  "classic-xref-pdftex-tracemonkey.pdf",
  "objstm-xrefstream-firefox.pdf",
  "hybrid-xref-word365.pdf",
  "pdf13-fpdf.pdf",
  "linearized-classic-xref.pdf",
  "pdf20-xrefstream-luatex.pdf",
];

let pki: TestPki;
let dir: string;
beforeAll(() => {
  pki = createTestPki();
  dir = mkdtempSync(path.join(tmpdir(), "pdf-repair-"));
});

/** qpdf's verdict on the damaged file: exit 0 clean, 3 repaired with warnings, 2 errors. */
function qpdfCheck(file: string): number {
  return spawnSync("qpdf", ["--check", file], { encoding: "utf8", timeout: 60_000 }).status ?? 2;
}

const cases = SOURCES.flatMap((source) => damages.map((damage) => [source, damage] as const));

describe("damaged-but-readable PDFs are rebuilt and signed when they carry no signature", () => {
  test.each(cases)("%s, %s", async (source, damage) => {
    const damaged = damagePdf(new Uint8Array(readFileSync(path.join(VALID, source))), damage);
    const input = path.join(dir, `${source}-${damage}.pdf`);
    writeFileSync(input, damaged);
    const qpdf = qpdfCheck(input);
    const accepted = await acceptPdf(damaged, { repair: repairPdf }).catch((error: unknown) => error);
    if (qpdf === 2) {
      // what qpdf cannot repair we may refuse, but only with a typed error
      if (accepted instanceof Error) expect((accepted as PdfError).code).toBe("INVALID_PDF");
      return;
    }
    // everything qpdf repairs must sign, and validate
    expect(accepted, String(accepted)).not.toBeInstanceOf(Error);
    const { bytes, repaired } = accepted as Awaited<ReturnType<typeof acceptPdf>>;
    expect(typeof repaired).toBe("boolean");
    const signed = await signPdf(bytes, { sign: pki.sign });
    const output = path.join(dir, `${source}-${damage}-signed.pdf`);
    writeFileSync(output, signed);
    const report = await validatePdf(output, pki.caPemPath);
    expect(report.ok, report.output).toBe(true);
  }, 120_000);

  test("a damaged file that already carries a signature is never rewritten", async () => {
    const signed = new Uint8Array(readFileSync(fixturePath("pdfs/signed-by-others/jsignpdf-openpdf-approval.pdf")));
    const error = await acceptPdf(damagePdf(signed, "truncated-after-last-object"), { repair: repairPdf }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfError);
    expect((error as PdfError).code).toBe("DAMAGED_SIGNED_PDF");
    expect((error as PdfError).message).toContain("invalidaría");
  });

  test("an encrypted file keeps its own refusal", async () => {
    const encrypted = new Uint8Array(readFileSync(fixturePath("pdfs/signed-by-others/acrobat-encrypted-and-signed.pdf")));
    const error = await acceptPdf(encrypted, { repair: repairPdf }).catch((e: unknown) => e);
    expect((error as PdfError).code).toBe("ENCRYPTED_PDF");
  });

  test("an intact file is not rebuilt", async () => {
    const bytes = new Uint8Array(readFileSync(path.join(VALID, "libreoffice70-tiny.pdf")));
    const accepted = await acceptPdf(bytes, { repair: () => Promise.reject(new Error("must not repair")) });
    expect(accepted.repaired).toBe(false);
    expect(accepted.bytes).toBe(bytes);
  });

  test("qpdf is the independent judge here", () => {
    expect(execFileSync("qpdf", ["--version"], { encoding: "utf8" })).toMatch(/qpdf version/);
  });
});
