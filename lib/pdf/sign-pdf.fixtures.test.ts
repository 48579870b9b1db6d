import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { makeStampAppearance } from "@/lib/pdf/test-support/make-stamp-appearance";
import { pdfsigValidations, qpdfCheck, validatePdf } from "@/lib/pdf/test-support/run-validators";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("pdfs");

/**
 * What the fixture already carries (see fixtures/README.md and signed-by-others/pdfsig-summary.txt):
 * signatures made by other tools are judged against *our* test CA, so their trust failures (and the
 * deliberately broken ones) are expected; only failures that point at them are tolerated.
 */
interface Expectation {
  refusal?: PdfError["code"];
  existingSignatures?: number;
  /** /Perms /UR3 usage-rights signature: its /ByteRange is not reachable from the AcroForm. */
  usageRights?: boolean;
  /** poppler lists the unsigned "Firma del prestador" field as a signature; PDFBox does not. */
  emptySignatureField?: string;
}

const EXPECTATIONS: Record<string, Expectation> = {
  "valid/acroform-irs-f1040-ur3.pdf": { usageRights: true },
  "valid/empty-signature-field.pdf": { emptySignatureField: "Firma del prestador" },
  "signed-by-others/acrobat-encrypted-and-signed.pdf": { refusal: "ENCRYPTED_PDF" },
  "signed-by-others/acrobat-sign-docmdp1-certified.pdf": { refusal: "CERTIFIED_NO_CHANGES" },
  "signed-by-others/jsignpdf-docmdp1-certified.pdf": { refusal: "CERTIFIED_NO_CHANGES" },
  // damaged xref (object 2's offset points at object 3) and no page tree: refused, never repaired
  "signed-by-others/fuzzed-pkcs7-sha1-digest-mismatch.pdf": { refusal: "INVALID_PDF" },
  "signed-by-others/itext-qualified-signature-2011.pdf": { existingSignatures: 1 },
  "signed-by-others/jsignpdf-openpdf-approval.pdf": { existingSignatures: 1 },
  "signed-by-others/libreoffice75-signed-incremental.pdf": { existingSignatures: 1 },
  "signed-by-others/pdfjs-signed-digest-mismatch.pdf": { existingSignatures: 1 },
  "signed-by-others/poppler-two-signatures.pdf": { existingSignatures: 2 },
  "signed-by-others/qpdf-test-signed-incremental.pdf": { existingSignatures: 1 },
  "signed-by-others/signed-tampered-digest-mismatch.pdf": { existingSignatures: 1 },
  "signed-by-others/signed-then-incremental-update.pdf": { existingSignatures: 1 },
  "signed-by-others/ur3-usage-rights-only.pdf": { usageRights: true },
};

const files = ["valid", "signed-by-others"].flatMap((dir) =>
  readdirSync(path.join(FIXTURES, dir))
    .filter((name) => name.endsWith(".pdf"))
    .map((name) => `${dir}/${name}`),
);

/** FAIL lines of validate-pdf that are not explained by what the input already contained. */
function unexpectedFailures(output: string, expectation: Expectation, inputLength: number): string[] {
  const existing = expectation.existingSignatures ?? 0;
  return output
    .split("\n")
    .filter((line) => line.startsWith("  FAIL: "))
    .filter((line) => {
      const index = /sig#(\d+)|signature (\d+) \(/.exec(line);
      if (index && Number(index[1] ?? index[2]) <= existing) return false;
      const orphan = /signature dictionary at offset (\d+) .*orphaned signature/.exec(line);
      if (orphan && expectation.usageRights && Number(orphan[1]) < inputLength) return false;
      if (expectation.emptySignatureField && line.includes(`(${expectation.emptySignatureField}) that PdfSignatureCheck does not`)) return false;
      return true;
    });
}

/** Our signatures come last in validate-pdf's table (ordered by where their ranges end). */
function ourSignatureBlocks(output: string, count: number): string[] {
  const blocks = output.split(/^(?=signature \d+: )/m).filter((b) => b.startsWith("signature "));
  return blocks.slice(-count);
}

describe.concurrent("signPdf over the fixture corpus: 1 visible + 3 invisible signatures", () => {
  let pki: TestPki;
  let outDir: string;
  beforeAll(() => {
    pki = createTestPki();
    outDir = mkdtempSync(path.join(tmpdir(), "pdf-fixtures-"));
  });

  test.each(files)("%s", async (file) => {
    const expectation = EXPECTATIONS[file] ?? {};
    const original = new Uint8Array(readFileSync(path.join(FIXTURES, file)));
    const appearance = await makeStampAppearance(170, 45);
    const step = (bytes: Uint8Array, visible: boolean) =>
      signPdf(bytes, {
        sign: pki.sign,
        reason: "Conformidad (prueba) /ByteRange [0 1 2 3]",
        location: "Lima, Perú",
        signingTime: new Date(),
        widget: visible ? { pageIndex: 0, rect: { x: 24, y: 24, width: 170, height: 45 }, appearance } : undefined,
      });

    if (expectation.refusal) {
      await expect(step(original, true)).rejects.toMatchObject({ code: expectation.refusal });
      return;
    }

    let bytes: Uint8Array = original;
    for (let n = 1; n <= 4; n++) {
      const previous = bytes;
      bytes = await step(previous, n === 1);
      expect(Buffer.compare(Buffer.from(bytes.subarray(0, previous.length)), Buffer.from(previous))).toBe(0);
      const out = path.join(outDir, `${file.replace("/", "--")}.${n}.pdf`);
      writeFileSync(out, bytes);
      const qpdf = await qpdfCheck(out);
      expect(qpdf.ok, qpdf.output).toBe(true);
      // the final file re-verifies every earlier signature, so the full validator runs on steps 1 and 4
      if (n === 1 || n === 4) {
        const report = await validatePdf(out, pki.caPemPath);
        // the prepared empty field is filled by the first invisible signature (step 2), so step 4 is strict
        const strict = !expectation.existingSignatures && !expectation.usageRights && (!expectation.emptySignatureField || n === 4);
        if (strict) expect(report.ok, report.output).toBe(true);
        expect(unexpectedFailures(report.output, expectation, original.length), report.output).toEqual([]);
        for (const block of ourSignatureBlocks(report.output, n)) {
          expect(block, report.output).toMatch(/PDFBox\+BC\s+ok\s+digest ok, CMS signature ok, \/Contents gap exact, covers its revision, chain trusted/);
          expect(block, report.output).toMatch(/pdfsig\s+ok\s+Signature is Valid\. \| Certificate is Trusted\./);
        }
      }
    }
    const validations = await pdfsigValidations(path.join(outDir, `${file.replace("/", "--")}.4.pdf`));
    expect(validations.slice(-4)).toEqual(Array(4).fill("Signature is Valid."));

  });
});
