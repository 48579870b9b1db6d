// `npx tsx bench/repaired-signing.ts [--only NAME]`: how many damaged unsigned uploads that qpdf can
// repair we sign into a B-LT output (signature revision + DSS revision) that every independent
// validator accepts (validate-pdf: qpdf --check, pdfsig, PDFBox, openssl ts). Prints one line per
// file and the totals; asserts nothing.
// Corpus: every hostile fixture qpdf opens (bombs skipped), the three damages of every valid fixture,
// and the generated kinds of lib/pdf/test-support/make-damaged-pdf.ts with a broken xref.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { acceptPdf } from "../lib/pdf/accept-pdf";
import { finishLongTermValidation } from "../lib/pdf/add-document-timestamp";
import { inspectPdf } from "../lib/pdf/inspect-pdf";
import { repairPdf } from "../lib/pdf/repair-pdf";
import { signPdf } from "../lib/pdf/sign-pdf";
import { createTestPki } from "../lib/pdf/test-support/create-test-pki";
import { damagePdf, damages } from "../lib/pdf/test-support/damage-pdf";
import { makeDamagedPdf } from "../lib/pdf/test-support/make-damaged-pdf";
import { fixturePath } from "@/test/fixtures-dir";
import { hostileFixtureNames, hostileFixturePath } from "@/lib/pdf/test-support/hostile-fixtures";
import { VALIDATE_PDF } from "@/test/validators/commands";

const PDFS = fixturePath("pdfs");
const SKIP = /^(gen-flate-bomb|gen-image-bomb|ossfuzz-99999d)/;

function qpdfStatus(file: string): number {
  return spawnSync("qpdf", ["--check", file], { encoding: "utf8", timeout: 60_000 }).status ?? 2;
}

function corpus(): Array<{ name: string; bytes: Uint8Array }> {
  const files: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const name of hostileFixtureNames()) {
    if (SKIP.test(name)) continue;
    files.push({ name: `hostile/${name}`, bytes: new Uint8Array(readFileSync(hostileFixturePath(name))) });
  }
  for (const name of readdirSync(path.join(PDFS, "valid")).sort()) {
    if (!name.endsWith(".pdf")) continue;
    const bytes = new Uint8Array(readFileSync(path.join(PDFS, "valid", name)));
    for (const damage of damages) files.push({ name: `valid/${name}:${damage}`, bytes: damagePdf(bytes, damage) });
  }
  for (const kind of ["dangling-references", "corrupt-object", "no-header-size-lie"] as const) {
    files.push({ name: `generated/${kind}`, bytes: makeDamagedPdf(kind, { brokenXref: true }) });
  }
  return files;
}

function needsRepair(bytes: Uint8Array): boolean {
  try {
    inspectPdf(bytes);
    return false;
  } catch {
    return true;
  }
}

async function main() {
  const only = process.argv.indexOf("--only") > 0 ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "repaired-signing-"));
  const pki = createTestPki();
  let repairable = 0;
  let passed = 0;
  const failures: string[] = [];
  for (const [index, { name, bytes }] of corpus().entries()) {
    if (only && !name.includes(only)) continue;
    const input = path.join(dir, `in-${index}.pdf`);
    writeFileSync(input, bytes);
    const qpdf = qpdfStatus(input);
    if (qpdf === 2 || !needsRepair(bytes)) continue;
    repairable++;
    let verdict: string;
    try {
      const accepted = await acceptPdf(bytes, { repair: repairPdf });
      const signed = await signPdf(accepted.bytes, { sign: pki.sign });
      const output = await finishLongTermValidation(signed, { certificates: [pki.caDer, pki.signerCertDer, pki.tsaCertDer], crls: [pki.crlDer] });
      const file = path.join(dir, `out-${index}.pdf`);
      writeFileSync(file, output);
      const result = spawnSync(VALIDATE_PDF, [file, "--ca", pki.caPemPath], { encoding: "utf8", timeout: 180_000 });
      const text = `${result.stdout}${result.stderr}`;
      const outQpdf = qpdfStatus(file);
      if (result.status === 0) {
        passed++;
        verdict = `PASS (qpdf ${outQpdf === 0 ? "clean" : "warnings"})`;
      } else {
        verdict = (/validate-pdf: FAIL: (.*)/.exec(text)?.[1] ?? text.slice(-300)).slice(0, 200);
        failures.push(`${name}: ${verdict}  [${file}]`);
      }
    } catch (error) {
      verdict = `refused: ${(error as Error).message} ${JSON.stringify((error as { details?: unknown }).details ?? "")}`.slice(0, 200);
      failures.push(`${name}: ${verdict}`);
    }
    console.log(`${name.padEnd(70)} qpdf-in ${qpdf}  ${verdict}`);
  }
  console.log(`\nqpdf-repairable inputs our strict reader refuses: ${repairable}; signed and valid in every validator: ${passed} (${((100 * passed) / Math.max(1, repairable)).toFixed(1)} %)`);
  if (failures.length) console.log(`not signed or not valid:\n  ${failures.join("\n  ")}`);
}

void main();
