import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { findCorruptObject } from "@/lib/pdf/find-corrupt-object";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { DamageKind, makeDamagedPdf } from "@/lib/pdf/test-support/make-damaged-pdf";
import { validatePdf } from "@/lib/pdf/test-support/run-validators";

let pki: TestPki;
let dir: string;
beforeAll(() => {
  pki = createTestPki();
  dir = mkdtempSync(path.join(tmpdir(), "pdf-repaired-outputs-"));
});

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
const DANGLING = [6, 7, 8, 9, 10, 11, 12, 13];
/** Object numbers an output defines ("N G obj" at a line start). */
const definedNumbers = (bytes: Uint8Array) => new Set([...latin1(bytes).matchAll(/^(\d+) \d+ obj\b/gm)].map((m) => Number(m[1])));

/** What the server hands back for a stamp: the signature revision, then the DSS revision (B-LT). */
async function signLongTerm(bytes: Uint8Array): Promise<Uint8Array> {
  const signed = await signPdf(bytes, { sign: pki.sign });
  return finishLongTermValidation(signed, { certificates: [pki.caDer, pki.signerCertDer, pki.tsaCertDer], crls: [pki.crlDer] });
}

/** validate-pdf (qpdf --check, pdfsig, PDFBox, openssl ts) passes and qpdf finds nothing to warn about. */
async function expectValidEverywhere(output: Uint8Array, name: string): Promise<void> {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, output);
  const report = await validatePdf(file, pki.caPemPath);
  expect(report.ok, report.output).toBe(true);
  const qpdf = spawnSync("qpdf", ["--check", file], { encoding: "utf8" });
  expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
}

describe("outputs made from damaged unsigned inputs are valid in every validator", () => {
  test.each([false, true])("references to objects the file lacks are never defined by our revisions (broken xref: %s)", async (brokenXref) => {
    const input = makeDamagedPdf("dangling-references", { brokenXref });
    // the counter-case: the input does point at objects it lacks, right where /Size would number new ones
    expect(latin1(input)).toContain("/Names 6 0 R");
    expect(latin1(input)).toContain("/Size 6 ");
    const accepted = await acceptPdf(input, { repair: repairPdf });
    expect(accepted.repaired).toBe(brokenXref);
    const output = await signLongTerm(accepted.bytes);
    const defined = definedNumbers(output);
    for (const num of DANGLING) expect(defined.has(num), `object ${num} defined`).toBe(brokenXref);
    if (brokenXref) {
      // the rebuild numbers objects afresh and turns the references to nothing into null
      expect(latin1(accepted.bytes)).not.toMatch(/\/Names \d+ 0 R/);
    } else {
      // the strict path keeps the input as a prefix, so the dangling references stay, still dangling
      expect(Buffer.from(output.subarray(0, input.length)).equals(Buffer.from(input))).toBe(true);
      expect(Math.min(...[...defined].filter((n) => n > 5))).toBeGreaterThan(13);
    }
    await expectValidEverywhere(output, `dangling-${brokenXref}`);
  }, 120_000);

  test.each([false, true])("a corrupt object is not carried into the signed base (broken xref: %s)", async (brokenXref) => {
    const input = makeDamagedPdf("corrupt-object", { brokenXref });
    if (!brokenXref) {
      // the strict reader opens it (it never reads the annotation), but the object does not parse
      expect(inspectPdf(input).pageCount).toBe(1);
      expect(findCorruptObject(input)).toMatch(/^object 6: /);
      // without the rebuild, signing keeps the garbage in the signed base
      expect(latin1(await signPdf(input, { sign: pki.sign }))).toContain("/P 3 0 X");
    }
    const accepted = await acceptPdf(input, { repair: repairPdf });
    expect(accepted.repaired).toBe(true);
    expect(findCorruptObject(accepted.bytes)).toBeUndefined();
    const output = await signLongTerm(accepted.bytes);
    expect(latin1(output)).not.toContain("3 0 X");
    await expectValidEverywhere(output, `corrupt-${brokenXref}`);
  }, 120_000);

  test("a mangled header and a trailer /Size beyond the PDF limit are rebuilt and signed", async () => {
    const input = makeDamagedPdf("no-header-size-lie" satisfies DamageKind, { brokenXref: true });
    expect(() => inspectPdf(input)).toThrow();
    const accepted = await acceptPdf(input, { repair: repairPdf });
    expect(accepted.repaired).toBe(true);
    expect(accepted.inspection.pageCount).toBe(1);
    await expectValidEverywhere(await signLongTerm(accepted.bytes), "no-header");
  }, 120_000);

  test("an intact unsigned file is not rebuilt, and a signed one with a corrupt object is kept as it is", async () => {
    const intact = makeDamagedPdf("no-header-size-lie").slice();
    intact.set(Buffer.from("%PDF-"), 0);
    const fixed = new Uint8Array(Buffer.from(latin1(intact).replace("/Size 2000000000", "/Size 6"), "latin1"));
    expect(findCorruptObject(fixed)).toBeUndefined();
    const accepted = await acceptPdf(fixed, { repair: () => Promise.reject(new Error("must not repair")) });
    expect(accepted.repaired).toBe(false);

    const signedCorrupt = await signPdf(makeDamagedPdf("corrupt-object"), { sign: pki.sign });
    const kept = await acceptPdf(signedCorrupt, { repair: repairPdf });
    expect(kept.repaired).toBe(false);
    expect(kept.bytes).toBe(signedCorrupt);
  });
});
