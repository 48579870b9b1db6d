import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { VerificationTasks } from "./verification-tasks";
import type { PadesLevel } from "./verification-report";
import { isSelfIssued } from "@/lib/pki/check-pki-signatures";
import { loadPlatformPki, type PkiSettings } from "@/lib/certificates/load-platform-pki";

const order: PadesLevel[] = ["B-B", "B-T", "B-LT", "B-LTA"];

/** The lower of two levels; a signature with no PAdES level at all counts as below B-B. */
export function lowerLevel(a: PadesLevel | null, b: PadesLevel | null): PadesLevel | null {
  if (a === null || b === null) return null;
  return order.indexOf(a) <= order.indexOf(b) ? a : b;
}

/**
 * The PAdES level our output really reaches, measured by our verifier (the same rules as EU DSS for
 * revocation timing), never assumed from what we meant to write: the lowest level among the last
 * `ourSignatures` signatures of `pdf` (earlier ones may belong to others). null when one of them has
 * no PAdES level, the file does not verify, or the verifier could not run (pool limits).
 * `signerChainDer`: the chain we signed with; a root in it (an imported outside CA's) is the anchor a
 * validator trusting that CA starts from, so its validation data counts for the level. Trust itself
 * is another question, answered by the verifier's status.
 */
export async function measurePadesLevel(output: MeasuredOutput, deps: MeasureDeps): Promise<PadesLevel | null> {
  const level = await measurePadesLevelOrUnmeasured(output, deps);
  return level === "unmeasured" ? null : level;
}

type MeasuredOutput = { pdf: Uint8Array; ourSignatures: number; signerChainDer?: readonly Uint8Array[] };
export type MeasureDeps = { db: Db; settings: PkiSettings & { trustAnchorsDer?: Uint8Array[] }; pools: { cpu: TaskRunner<VerificationTasks> } };

/** As measurePadesLevel, telling a verifier that could not run (pool limits) apart from a file with no level. */
export async function measurePadesLevelOrUnmeasured({ pdf, ourSignatures, signerChainDer = [] }: MeasuredOutput, { db, settings, pools }: MeasureDeps): Promise<PadesLevel | null | "unmeasured"> {
  const pki = await loadPlatformPki({ db, settings });
  const anchorsDer = [pki.root.certificateDer, ...(settings.trustAnchorsDer ?? []), ...signerChainDer.filter(isSelfIssued)];
  let report;
  try {
    report = await pools.cpu.run("verify-pdf", { bytes: pdf, anchorsDer });
  } catch {
    // the signature is made and stored either way; an unmeasured level is reported as unknown, never guessed
    return "unmeasured";
  }
  const signatures = report.signatures.filter((s) => s.kind === "signature").slice(-ourSignatures);
  if (signatures.length < ourSignatures || ourSignatures < 1) return null;
  let level: PadesLevel | null = "B-LTA";
  for (const signature of signatures) level = signature.status === "valid" || signature.status === "untrusted" ? lowerLevel(level, signature.level ?? null) : null;
  return level;
}
