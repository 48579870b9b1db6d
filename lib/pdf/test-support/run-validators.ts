import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { VALIDATE_PDF } from "@/test/validators/commands";

const run = promisify(execFile);

export interface ValidatorResult {
  ok: boolean;
  output: string;
}

async function capture(command: string, args: string[], timeout = 120_000): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { timeout, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** qpdf --check: exit 0 (clean) or 3 (warnings only) is structurally fine; 2 is an error. */
export async function qpdfCheck(file: string): Promise<ValidatorResult> {
  const { code, output } = await capture("qpdf", ["--check", file]);
  return { ok: code === 0 || code === 3, output };
}

export { VALIDATE_PDF };

export async function validatePdf(file: string, caPem: string): Promise<ValidatorResult> {
  const { code, output } = await capture(VALIDATE_PDF, [file, "--ca", caPem]);
  return { ok: code === 0 && /validate-pdf: PASS/.test(output), output };
}

/** pdfsig lines "Signature Validation: ..." in file order. */
export async function pdfsigValidations(file: string): Promise<string[]> {
  const { output } = await capture("pdfsig", ["-nocert", file]);
  return [...output.matchAll(/- Signature Validation: (.*)/g)].map((m) => m[1].trim());
}
