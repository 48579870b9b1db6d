import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { pdfsigValidations, validatePdf } from "@/lib/pdf/test-support/run-validators";
import { hostileFixtureNames, hostileFixturePath } from "@/lib/pdf/test-support/hostile-fixtures";

const run = promisify(execFile);
const CHILD = path.resolve(__dirname, "test-support/sign-fixture-in-child.ts");
const TYPED = ["INVALID_PDF", "ENCRYPTED_PDF", "PDF_TOO_COMPLEX"];
// qpdf --check (inside validate-pdf) inflates content streams: the bombs take it minutes
const NO_EXTERNAL_VALIDATION = /bomb/;

interface ChildResult {
  result: "signed" | "refused" | "crash";
  code?: string;
  reason?: string;
  message?: string;
  ms: number;
}

const files = hostileFixtureNames();

describe.concurrent("hostile inputs end in a typed refusal or a valid signature", () => {
  let pki: TestPki;
  let outDir: string;
  beforeAll(() => {
    pki = createTestPki();
    outDir = mkdtempSync(path.join(tmpdir(), "pdf-hostile-"));
  });

  test.each(files)("%s", async (name) => {
    const file = hostileFixturePath(name);
    // a separate process bounds time and heap: a hang or a blow-up fails this test, not the run.
    // The bounds are generous (a busy 2-core CI machine runs this beside other suites); a hang is
    // still caught, and bench/hostile.ts measures the real times
    const started = Date.now();
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--max-old-space-size=512", CHILD, file], {
      timeout: 60_000,
      cwd: path.resolve(__dirname, "../.."),
    });
    const result = JSON.parse(stdout.trim().split("\n").pop()!) as ChildResult;
    expect(result.result, JSON.stringify(result)).not.toBe("crash");
    expect(result.ms).toBeLessThan(45_000);
    expect(Date.now() - started).toBeLessThan(60_000);
    if (result.result === "refused") {
      expect(TYPED).toContain(result.code);
      return;
    }
    const signed = await signPdf(new Uint8Array(readFileSync(file)), { sign: pki.sign });
    expect(inspectPdf(signed).signatureCount).toBe(1);
    const out = path.join(outDir, name);
    writeFileSync(out, signed);
    expect(await pdfsigValidations(out)).toEqual(["Signature is Valid."]);
    if (!NO_EXTERNAL_VALIDATION.test(name)) {
      const report = await validatePdf(out, pki.caPemPath);
      expect(report.ok, report.output).toBe(true);
    }
  }, 300_000);
});
