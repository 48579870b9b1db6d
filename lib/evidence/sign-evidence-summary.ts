import { createHash } from "node:crypto";
import { finishLongTermValidation, type LongTermValidationInput } from "@/lib/pdf/add-document-timestamp";
import { signPdf } from "@/lib/pdf/sign-pdf";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import { signCadesDetached } from "@/lib/pki/sign-cms-detached";
import { toAppError } from "@/lib/engine-errors";
import type { ProcessEvidence } from "./collect-process-evidence";
import { drawEvidenceSummary } from "./draw-evidence-summary";

export type EvidenceSummaryInput = {
  evidence: ProcessEvidence;
  signer: CmsSignerInput;
  validation: Pick<LongTermValidationInput, "certificates" | "crls">;
  signedAt: Date;
};

/** What the task asks the main thread for: the signature's time-stamp token. */
export type EvidenceSummaryCalls = { timestamp: (digestSha256: Uint8Array) => Promise<Uint8Array> };

/**
 * The evidence summary drawn and signed (runs in the worker pool): an invisible PAdES signature
 * by the organization's agent certificate with a signature time-stamp, then validation data (B-LT).
 */
export async function signEvidenceSummary(input: EvidenceSummaryInput, { timestamp }: EvidenceSummaryCalls): Promise<Uint8Array> {
  try {
    const drawn = await drawEvidenceSummary(input.evidence);
    const signed = await signPdf(drawn, {
      sign: (digest) => signCadesDetached({ digest, signer: input.signer, signatureTimestamp: (value) => timestamp(new Uint8Array(createHash("sha256").update(value).digest())) }),
      reason: `Resumen de evidencias del proceso ${input.evidence.process.id}`.slice(0, 200),
      signingTime: input.signedAt,
    });
    return await finishLongTermValidation(signed, input.validation);
  } catch (error) {
    throw toAppError(error);
  }
}
