import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { verifyPdfSignatures } from "./verify-pdf-signatures";
import { fixturePath } from "@/test/fixtures-dir";

// The real-world signed PDFs and their manifest live in the repository (test/fixtures/README.md).
const DIR = fixturePath("pdfs/real-world");

type ManifestRow = { file: string; expected: "GENUINE" | "ATTACK" | "UNSIGNED" };

const rows: ManifestRow[] = fs
  .readFileSync(path.join(DIR, "manifest.tsv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => line.split("\t"))
  .map(([file, expected]) => ({ file, expected: expected as ManifestRow["expected"] }));

// What each class may answer (README of the fixture folder: the classes come from EU DSS's own tests).
const ACCEPTED: Record<ManifestRow["expected"], string[]> = {
  GENUINE: ["valid", "untrusted", "unverifiable"],
  ATTACK: ["changed", "invalid", "INVALID_PDF", "PDF_TOO_COMPLEX"],
  UNSIGNED: ["unsigned"],
};

async function answerFor(file: string): Promise<{ answer: string; why: string }> {
  try {
    const report = await verifyPdfSignatures(new Uint8Array(fs.readFileSync(path.join(DIR, file))), []);
    const why = report.signatures.flatMap((s) => [s.detail, s.chain.reason, ...s.changesAfter.map((c) => `r${c.revision} ${c.kind}: ${c.detail}`)].filter(Boolean)).join("; ");
    return { answer: report.verdict, why };
  } catch (error) {
    if (error instanceof PdfError) return { answer: error.code, why: error.message };
    throw error;
  }
}

describe("the verifier on real-world signed PDFs (EU DSS test resources)", () => {
  test("the manifest lists the 69 files", () => {
    expect(rows).toHaveLength(69);
    expect(rows.filter((row) => row.expected === "ATTACK")).toHaveLength(10);
  });

  test.each(rows)("$file is $expected", async ({ file, expected }) => {
    const { answer, why } = await answerFor(file);
    expect(ACCEPTED[expected], `${file} answered ${answer}: ${why}`).toContain(answer);
  });
});
