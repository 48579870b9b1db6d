import { eq } from "drizzle-orm";
import { identityReviews } from "@/db/schema";
import { PermanentJobFailure, type JobHandler } from "@/lib/outbox/run-dispatcher";
import { readJobPayload } from "@/lib/outbox/job-payloads";
import { linkTokenOf } from "@/lib/processes/link-token";
import { signAsProcessSigner, type ProcessSigningDeps } from "@/lib/signers/sign-as-process-signer";
import { SignerFlowError } from "@/lib/signers/signer-flow-error";

/**
 * The outbox job an approval queues when the signer already asked to sign: the signature is made
 * exactly as the signer's own click would make it, through their link (re-created from its id) and
 * with the device that asked. A signer who can no longer sign (link replaced, process concluded)
 * makes the job fail for good; a busy TSA is retried.
 */
export function signAfterReviewJobHandler(services: ProcessSigningDeps): JobHandler {
  return async (job, db) => {
    const { reviewId } = readJobPayload(job, ["identity.sign_after_review"]);
    const [review] = await db.select().from(identityReviews).where(eq(identityReviews.id, reviewId)).limit(1);
    if (!review || review.status !== "approved") throw new PermanentJobFailure("no approved review");
    const token = linkTokenOf(review.linkId, services.config.secretKey);
    try {
      // the approval lets the session that made the reviewed try sign, and that session asked for this
      await signAsProcessSigner({ token, signerId: review.signerId, sessionId: review.sessionId ?? undefined, client: review.signRequestClient ?? undefined }, { ...services, db });
    } catch (error) {
      if (error instanceof SignerFlowError && error.reason === "already_signed") return;
      if (error instanceof SignerFlowError && error.reason !== "document_changed") throw new PermanentJobFailure(error.reason);
      throw error;
    }
  };
}
