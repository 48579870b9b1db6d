import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { verifyPdfSignatures } from "./verify-pdf-signatures";
import { fixturePath } from "@/test/fixtures-dir";
import { VALIDATE_PDF } from "@/test/validators/commands";

const DIR = fixturePath("pdfs/signed-by-others");

type Row = {
  /** Our verdict, or the refusal code. */
  ours: string;
  /** validate-pdf without anchors (trust is not judged): PASS or the first words of its FAIL reason. */
  validatePdf: string;
  /** pdfsig "Signature Validation" lines (certificate trust aside). */
  pdfsig: string[];
  /** Why the three differ, when they do (docs/verification.md repeats it). */
  why?: string;
};

// "untrusted" is our word for an intact signature from a CA outside our anchors: the same finding as
// validate-pdf's PASS without --ca and pdfsig's "Signature is Valid." (which also ignores trust here).
const TABLE: Record<string, Row> = {
  "acrobat-encrypted-and-signed.pdf": { ours: "ENCRYPTED_PDF", validatePdf: "FAIL", pdfsig: ["Unknown Validation Failure."] },
  "acrobat-sign-docmdp1-certified.pdf": {
    ours: "ENCRYPTED_PDF",
    validatePdf: "PASS",
    pdfsig: ["Signature is Valid."],
    why: "the file is encrypted (empty user password); we refuse encrypted files rather than verify strings we cannot decrypt",
  },
  "fuzzed-pkcs7-sha1-digest-mismatch.pdf": { ours: "invalid", validatePdf: "FAIL", pdfsig: ["Digest Mismatch."] },
  "itext-qualified-signature-2011.pdf": {
    ours: "untrusted",
    validatePdf: "FAIL",
    pdfsig: ["Signature is Valid."],
    why: "BouncyCastle (inside validate-pdf) cannot read this 2011 CMS; pdfsig and we verify it",
  },
  "jsignpdf-docmdp1-certified.pdf": {
    ours: "untrusted",
    validatePdf: "FAIL",
    pdfsig: ["Signature is Valid."],
    why: "openssl ts -verify judges the TSA certificate today (expired); we judge it at the token's time, like EU DSS",
  },
  "jsignpdf-openpdf-approval.pdf": { ours: "untrusted", validatePdf: "PASS", pdfsig: ["Signature is Valid."] },
  "libreoffice75-signed-incremental.pdf": { ours: "untrusted", validatePdf: "PASS", pdfsig: ["Signature is Valid."] },
  "pdfjs-signed-digest-mismatch.pdf": { ours: "invalid", validatePdf: "FAIL", pdfsig: ["Digest Mismatch."] },
  "poppler-two-signatures.pdf": { ours: "untrusted", validatePdf: "PASS", pdfsig: ["Signature is Valid.", "Signature is Valid."] },
  "qpdf-test-signed-incremental.pdf": { ours: "untrusted", validatePdf: "PASS", pdfsig: ["Signature is Valid."] },
  "signed-tampered-digest-mismatch.pdf": { ours: "invalid", validatePdf: "FAIL", pdfsig: ["Digest Mismatch."] },
  "signed-then-incremental-update.pdf": {
    ours: "untrusted",
    validatePdf: "FAIL",
    pdfsig: ["Signature is Valid."],
    why: "the unsigned revision only replaces /Info and every page renders as signed: we record it as a finding (issue 41, as DSS does); pdfsig checks the signed bytes only ('Not total document signed'); validate-pdf refuses any unsigned revision after the last signature",
  },
  "ur3-usage-rights-only.pdf": { ours: "unsigned", validatePdf: "FAIL", pdfsig: [] },
};

function validatePdf(file: string, ca?: string): string {
  const result = spawnSync(VALIDATE_PDF, [file, ...(ca ? ["--ca", ca] : [])], { encoding: "utf8", timeout: 180_000 });
  const verdict = /validate-pdf: (PASS|FAIL)/.exec(result.stdout + result.stderr);
  return verdict ? verdict[1] : `no verdict: ${result.stderr}`;
}

function pdfsig(file: string): string[] {
  const result = spawnSync("pdfsig", ["-nocert", file], { encoding: "utf8", timeout: 60_000 });
  return [...result.stdout.matchAll(/- Signature Validation: (.*)/g)].map((m) => m[1].trim());
}

async function ours(bytes: Uint8Array, anchors: Uint8Array[] = []): Promise<string> {
  try {
    return (await verifyPdfSignatures(bytes, anchors)).verdict;
  } catch (error) {
    if (error instanceof PdfError) return error.code;
    throw error;
  }
}

describe("verdicts against validate-pdf and pdfsig on files signed by other tools", () => {
  test("every file of the fixture folder is in the table", () => {
    expect(fs.readdirSync(DIR).filter((name) => name.endsWith(".pdf")).sort()).toEqual(Object.keys(TABLE).sort());
  });

  test.each(Object.entries(TABLE))("%s", async (name, row) => {
    const file = path.join(DIR, name);
    expect({ ours: await ours(new Uint8Array(fs.readFileSync(file))), validatePdf: validatePdf(file), pdfsig: pdfsig(file) }).toEqual({
      ours: row.ours,
      validatePdf: row.validatePdf,
      pdfsig: row.pdfsig,
    });
    // where all three agree there is nothing to explain
    const agree = (row.validatePdf === "PASS") === ["valid", "untrusted"].includes(row.ours);
    expect(agree || row.why !== undefined).toBe(true);
  });
});

describe("verdicts against validate-pdf --ca and pdfsig on our own outputs", () => {
  let genuine: GenuineOutputs;
  let dir: string;
  let ca: string;
  beforeAll(async () => {
    genuine = await makeGenuineOutputs();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-agreement-"));
    ca = path.join(dir, "ca.pem");
    fs.writeFileSync(ca, genuine.anchorsDer.map((der) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString("base64")}\n-----END CERTIFICATE-----\n`).join(""));
  }, 120_000);

  test.each(["stamp", "signedTwice", "twoSignersLta"] as const)("%s: valid here, PASS there, every signature valid in pdfsig", async (kind) => {
    const file = path.join(dir, `${kind}.pdf`);
    fs.writeFileSync(file, genuine[kind]);
    expect(await ours(genuine[kind], genuine.anchorsDer)).toBe("valid");
    expect(validatePdf(file, ca)).toBe("PASS");
    // poppler 22.12 does not check ETSI.RFC3161 document time-stamps ("not yet verified"); validate-pdf does, with openssl
    const lines = pdfsig(file);
    const signers = kind === "stamp" ? 1 : 2;
    expect(lines).toEqual([...Array(signers).fill("Signature is Valid."), ...(kind === "twoSignersLta" ? ["Signature has not yet been verified."] : [])]);
  });

  test("bare (no DSS, no TSA certificate anywhere): invalid here, FAIL there", async () => {
    const file = path.join(dir, "bare.pdf");
    fs.writeFileSync(file, genuine.bare);
    expect(await ours(genuine.bare, genuine.anchorsDer)).toBe("invalid");
    expect(validatePdf(file, ca)).toBe("FAIL");
  });
});
