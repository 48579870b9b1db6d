// The outputs a benchmark kept, checked by validators we did not write: validate-pdf on each, and
// iText 5 against the level the server recorded for it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { validatePdf } from "../e2e/fixtures/independent-validators";
import { itextCheckAt } from "../lib/certificates/testing/long-term-checks";

/** One kept output and the level the server recorded for it (X-Pades-Level). */
export type Sample = { name: string; pdf: Uint8Array; level?: string | null };

/** Keeps the first and every tenth output of a phase. */
export function sampler(name: string, into: Sample[]) {
  return everyTenth((body, response, seen) => into.push({ name: `${name} #${seen}`, pdf: body, level: response.headers.get("x-pades-level") }));
}

/** The same for the JSON answer (binary_resp 0): the PDF is its signed_pdf, the level its pades_level. */
export function jsonAnswerSampler(name: string, into: Sample[]) {
  return everyTenth((body, _response, seen) => {
    const answer = JSON.parse(Buffer.from(body).toString()) as { signed_pdf: string; pades_level: string | null };
    into.push({ name: `${name} #${seen}`, pdf: Buffer.from(answer.signed_pdf, "base64"), level: answer.pades_level });
  });
}

/** Calls `keep` for the first and every tenth answer, with its 1-based position. */
function everyTenth(keep: (body: Uint8Array, response: Response, seen: number) => void) {
  let seen = 0;
  return (body: Uint8Array, response: Response) => {
    if (seen++ % 10 === 0) keep(body, response, seen);
  };
}

/**
 * validate-pdf on every sample, then iText 5: the recorded level claims long-term validation (B-LT
 * or B-LTA) exactly when iText finds every signature, chain and revocation data complete.
 * Returns the summary lines and a description of each failure.
 */
export async function checkSampledOutputs(samples: Sample[], caPem: string): Promise<{ lines: string[]; failures: string[] }> {
  const failures: string[] = [];
  let valid = 0;
  for (const sample of samples) {
    const result = validatePdf(sample.pdf, caPem);
    if (result.pass) valid++;
    else failures.push(`validate-pdf FAIL on ${sample.name}:\n${result.output.slice(0, 2000)}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-bench-itext-"));
  const caFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caFile, caPem);
  let agreed = 0;
  for (const [i, sample] of samples.entries()) {
    const file = path.join(dir, `${i}.pdf`);
    fs.writeFileSync(file, sample.pdf);
    const itext = await itextCheckAt(file, [caFile]);
    const claimsLongTerm = sample.level === "B-LT" || sample.level === "B-LTA";
    if (claimsLongTerm === itext.ok) agreed++;
    else failures.push(`level disagreement on ${sample.name}: recorded ${sample.level ?? "none"}, iText ${itext.ok ? "PASS" : "FAIL"}\n${itext.output.slice(0, 1500)}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const levels = [...new Set(samples.map((s) => s.level ?? "none"))].join(", ");
  return {
    lines: [`validate-pdf: ${valid}/${samples.length} sampled outputs PASS`, `recorded level (${levels}) against iText 5: ${agreed}/${samples.length} sampled outputs agree`],
    failures,
  };
}
