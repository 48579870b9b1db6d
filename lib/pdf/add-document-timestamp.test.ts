import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { makeStampAppearance } from "@/lib/pdf/test-support/make-stamp-appearance";
import { VALIDATE_PDF } from "@/lib/pdf/test-support/run-validators";
import { execFileSync } from "node:child_process";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("pdfs");

let pki: TestPki;
let outDir: string;
beforeAll(() => {
  pki = createTestPki();
  outDir = mkdtempSync(path.join(tmpdir(), "pdf-lta-"));
});

function validateJson(bytes: Uint8Array, name: string) {
  const file = path.join(outDir, name);
  writeFileSync(file, bytes);
  let stdout: string;
  try {
    stdout = execFileSync(VALIDATE_PDF, [file, "--ca", pki.caPemPath, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    stdout = (error as { stdout: string }).stdout;
  }
  return JSON.parse(stdout);
}

describe.concurrent("finishLongTermValidation (B-LTA)", () => {
  test.each(["valid/libreoffice74-contrato-a4.pdf", "valid/qpdf-objstm-generate.pdf", "valid/hybrid-xref-word365.pdf"])(
    "%s: signature, then DSS revision + document timestamp",
    async (name) => {
      const input = new Uint8Array(readFileSync(path.join(FIXTURES, name)));
      const signed = await signPdf(input, {
        sign: pki.sign,
        widget: { pageIndex: 0, rect: { x: 30, y: 30, width: 160, height: 40 }, appearance: await makeStampAppearance(160, 40) },
      });
      const finished = await finishLongTermValidation(signed, {
        certificates: [pki.signerCertDer, pki.caDer, pki.tsaCertDer],
        crls: [pki.crlDer],
        timestamp: pki.timestamp,
      });
      expect(Buffer.compare(Buffer.from(finished.subarray(0, signed.length)), Buffer.from(signed))).toBe(0);
      expect(inspectPdf(finished).signatureCount).toBe(2);
      const report = validateJson(finished, name.replace("/", "--"));
      expect(report.pass, JSON.stringify(report.reasons)).toBe(true);
      const check = report.pdfSignatureCheck;
      expect(check.dss.present).toBe(true);
      expect(check.signatures.map((s: { type: string }) => s.type)).toEqual(["signature", "doc-timestamp"]);
    },
  );

  test("a second finish on top of the first keeps everything valid", async () => {
    const input = new Uint8Array(readFileSync(path.join(FIXTURES, "valid/pdf20-xrefstream-luatex.pdf")));
    let bytes = await signPdf(input, { sign: pki.sign });
    for (let i = 0; i < 2; i++) {
      bytes = await finishLongTermValidation(bytes, { certificates: [pki.signerCertDer, pki.caDer], crls: [pki.crlDer], timestamp: pki.timestamp });
    }
    const report = validateJson(bytes, "double-lta.pdf");
    expect(report.pass, JSON.stringify(report.reasons)).toBe(true);
    expect(report.pdfSignatureCheck.signatures).toHaveLength(3);
  });
});
