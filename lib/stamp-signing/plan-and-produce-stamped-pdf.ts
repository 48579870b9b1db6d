import { acceptPdf } from "@/lib/pdf/accept-pdf";
import { repairPdf } from "@/lib/pdf/repair-pdf";
import { finishLongTermValidation, type LongTermValidationInput } from "@/lib/pdf/add-document-timestamp";
import type { CmsSignerInput } from "@/lib/pki/prepare-cms-signer";
import type { TimeStamper } from "@/lib/certificates/time-stamp-authority";
import { timed } from "@/lib/runtime/request-timing";
import type { SignPdfFields } from "./schemas";
import { planStampSignature } from "./plan-stamp-signature";
import { produceStampedPdf } from "./produce-stamped-pdf";

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
  /** Certificates and CRLs for the DSS of the signer's chain. */
  validation: () => Promise<Pick<LongTermValidationInput, "certificates" | "crls">>;
  timestamp: TimeStamper;
};

/**
 * A signPDF signed now, in one worker task: the upload is read (and rebuilt when damaged), checked
 * against the request, and signed from the same parse and the same checked image. The transaction
 * is claimed in between, so a bad document, page, image or position is refused before the tx_token
 * is taken, in the same order and with the same errors as before any work is queued.
 */
export async function planAndProduceStampedPdf(input: StampSignTaskInput, calls: StampSigningCalls): Promise<{ pdf: Uint8Array; sha256: string }> {
  const plan = await planStampSignature({ fields: input.fields, upload: input.pdf, image: input.image }, {
    accept: (bytes) => timed("inspect", () => acceptPdf(bytes, { repair: repairPdf })),
  });
  const signer = await timed("database", () => calls.claim({ repaired: plan.repaired }));
  const validation = await timed("dss", () => calls.validation());
  return produceStampedPdf(plan.pdf, plan.image, input.fields, plan, {
    signer,
    timeStamper: calls.timestamp,
    finish: (pdf) => finishLongTermValidation(pdf, validation),
    txToken: input.txToken,
    environment: input.environment,
    verifyUrl: input.verifyUrl,
    signedAt: new Date(),
  });
}
