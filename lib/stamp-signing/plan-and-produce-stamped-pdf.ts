import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { finishLongTermValidation, type LongTermValidationInput } from "@/lib/pdf/add-document-timestamp";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import type { TimeStamper } from "@/lib/certificates/time-stamp-authority";
import { timed } from "@/lib/runtime/request-timing";
import type { SignPdfFields } from "./schemas";
import { planStampSignature } from "./plan-stamp-signature";
import { produceStampedPdf } from "./produce-stamped-pdf";
import { deriveStampLevel } from "./derive-stamp-level";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type StampValidationData = Pick<LongTermValidationInput, "certificates" | "crls"> & { anchorsDer: Uint8Array[] };

export type StampSignTaskInput = {
  pdf: Uint8Array;
  image?: Uint8Array;
  fields: SignPdfFields;
  txToken: string;
  environment: "quality" | "production";
  verifyUrl: string;
};

/** What the signing needs from the main thread, asked for only once the request has been checked. */
export type StampSigningCalls = {
  /** Resolves the signer and claims the transaction (the database lives on the main thread). */
  claim: (facts: { repaired: boolean }) => Promise<CmsSignerInput>;
  /** Certificates and CRLs for the DSS of the signer's chain, and the anchors its level is judged from. */
  validation: () => Promise<StampValidationData>;
  timestamp: TimeStamper;
};

/**
 * A signPDF signed now, in one worker task: the upload is read (and rebuilt when damaged), checked
 * against the request, and signed from the same parse and the same checked image. The transaction
 * is claimed in between, so a bad document, page, image or position is refused before the tx_token
 * is taken, in the same order and with the same errors as before any work is queued. The PAdES
 * level is derived from the CMS, time-stamp and DSS data this task built.
 */
export async function planAndProduceStampedPdf(input: StampSignTaskInput, calls: StampSigningCalls): Promise<{ pdf: Uint8Array; sha256: string; padesLevel: PadesLevel | null }> {
  const plan = await planStampSignature({ fields: input.fields, upload: input.pdf, image: input.image }, {
    accept: (bytes) => timed("inspect", () => acceptPdf(bytes, { repair: repairPdf })),
  });
  const signer = await timed("database", () => calls.claim({ repaired: plan.repaired }));
  const validation = await timed("dss", () => calls.validation());
  const produced = await produceStampedPdf(plan.pdf, plan.image, input.fields, plan, {
    signer,
    timeStamper: calls.timestamp,
    finish: (pdf) => finishLongTermValidation(pdf, { certificates: validation.certificates, crls: validation.crls }),
    txToken: input.txToken,
    environment: input.environment,
    verifyUrl: input.verifyUrl,
    signedAt: new Date(),
  });
  // measured on what this task built, in the same worker: no second task re-reads the whole output
  const padesLevel = await timed("level", () => deriveStampLevel({ ...produced.signature, dss: validation, anchorsDer: validation.anchorsDer }));
  return { pdf: produced.pdf, sha256: produced.sha256, padesLevel };
}
