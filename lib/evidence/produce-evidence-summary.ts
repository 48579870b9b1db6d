import { createHash } from "node:crypto";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { loadAgentSigner } from "@/lib/certificates/load-agent-signer";
import { validationData } from "@/lib/certificates/finish-long-term-validation";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { timeStamperFor } from "@/lib/certificates/time-stamp-authority";
import type { EvidenceTasks } from "./evidence-tasks";
import type { Services } from "@/lib/runtime/services";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { collectProcessEvidence } from "./collect-process-evidence";

/**
 * The evidence summary of one process of the staff member's organization, as a PDF signed with the
 * organization's agent certificate (B-LT). Each export is itself written to the audit trail with
 * the summary's hash. Another organization's process is not found.
 */
export type ProduceEvidenceSummaryInput = { organizationId: string; processId: string; actor: string };

export async function produceEvidenceSummary(
  input: ProduceEvidenceSummaryInput,
  services: Pick<Services, "db" | "config" | "pools">,
): Promise<{ pdf: Uint8Array; fileName: string }> {
  const { db, config, pools } = services;
  const evidence = await collectProcessEvidence(input, db);
  const settings = { ...pkiSettingsOf(config), externalTsaUrl: config.TSA_URL, externalTsaToken: config.TSA_URL_AUTH_TOKEN };
  const signer = await loadAgentSigner(input.organizationId, { db, settings });
  const timeStamper = await timeStamperFor({ db, settings });
  // drawing, signing and the validation data run in the worker pool; the database-backed TSA answers from here
  const cpu: TaskRunner<EvidenceTasks> = pools.cpu;
  const pdf = await cpu.run(
    "sign-evidence-summary",
    { evidence, signer, validation: await validationData({ signerCertificates: [signer.certificateDer, ...signer.chainDer] }, { db, settings, pools }), signedAt: new Date() },
    { timestamp: (digest: Uint8Array) => timeStamper(digest) },
  );
  await recordAuditEvent(
    { organizationId: input.organizationId, actor: input.actor, action: "process.evidence_exported", target: evidence.process.id, detail: { sha256: createHash("sha256").update(pdf).digest("hex") } },
    db,
  );
  return { pdf, fileName: `evidencias-${evidence.process.id.split(":")[0]}.pdf` };
}
