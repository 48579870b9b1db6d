import { logger } from "@/lib/runtime/log";
import { metrics } from "@/lib/metrics/metrics";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type RecordedLevel = { kind: "stamp" | "process"; transaction: string; pdf: Uint8Array; recorded: PadesLevel | null };

/** One output in `rate` (0 never, 1 always) is verified in full after it was answered. */
export function isAuditSampled(rate: number, draw: () => number = Math.random): boolean {
  return rate > 0 && draw() < rate;
}

/**
 * The full check behind a derived level: verifies the whole output as a validator would and compares
 * the level it finds with the one recorded. A disagreement is an alert (error log and
 * firmaviva_level_disagreements_total), never a silent correction: the signature was already answered.
 * A verifier that could not run (pool limits) counts as unmeasured, not as a disagreement.
 */
export async function auditRecordedLevel(
  output: RecordedLevel,
  deps: { measure: (pdf: Uint8Array) => Promise<PadesLevel | null | "unmeasured"> },
): Promise<"agrees" | "disagrees" | "unmeasured"> {
  let measured;
  try {
    measured = await deps.measure(output.pdf);
  } catch {
    measured = "unmeasured" as const;
  }
  if (measured === "unmeasured") {
    metrics().levelAudits.inc({ kind: output.kind, outcome: "unmeasured" });
    return "unmeasured";
  }
  if (measured === output.recorded) {
    metrics().levelAudits.inc({ kind: output.kind, outcome: "agrees" });
    return "agrees";
  }
  metrics().levelAudits.inc({ kind: output.kind, outcome: "disagrees" });
  metrics().levelDisagreements.inc({ kind: output.kind, recorded: output.recorded ?? "none", measured: measured ?? "none" });
  logger().error({ kind: output.kind, transaction: output.transaction, recorded: output.recorded, measured }, "recorded PAdES level differs from the full verification");
  return "disagrees";
}
