import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews, processSigners } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { identityLevelOf, type SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { checkReviewerIndependence } from "./check-reviewer-independence";

/** How long an approval lets a signer who had not asked to sign yet do so without a new facial try. */
export const APPROVED_FACIAL_VALID_SECONDS = 24 * 60 * 60;

export type ReviewDecider = { userId: string; email: string; organizationId: string };

/**
 * A staff member approves a self-supplied ID photo: the signer's level becomes document-reviewed,
 * for the try reviewed (a newer try voids it), in the session that made it, under the names the
 * reviewer saw (other names void it). The process's creator may not approve unless nobody else
 * may review (audited). When the signer already asked to sign, the signature is queued (outbox) in
 * the same transaction, so the approval and the work it promises commit together. The
 * pending→approved step is one conditional UPDATE: two reviewers deciding at once cannot both win.
 */
export async function approveIdentityReview(input: { reviewId: string; staff: ReviewDecider }, db: Db): Promise<{ signing: boolean; soleReviewerException: boolean }> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [pending] = await tx
      .select({ processId: identityReviews.processId })
      .from(identityReviews)
      .where(and(eq(identityReviews.id, input.reviewId), eq(identityReviews.organizationId, input.staff.organizationId), eq(identityReviews.status, "pending")))
      .limit(1);
    if (!pending) throw new AppError("CONFLICT", "La revisión ya fue decidida o no existe.");
    const { soleReviewerException } = await checkReviewerIndependence({ processId: pending.processId, staff: input.staff }, tx);
    const [review] = await tx
      .update(identityReviews)
      .set({ status: "approved", decidedAt: now, decidedBy: input.staff.userId, decidedByEmail: input.staff.email, soleReviewerException })
      .where(and(eq(identityReviews.id, input.reviewId), eq(identityReviews.organizationId, input.staff.organizationId), eq(identityReviews.status, "pending")))
      .returning();
    if (!review) throw new AppError("CONFLICT", "La revisión ya fue decidida o no existe.");
    const [signer] = await tx.select().from(processSigners).where(eq(processSigners.id, review.signerId)).for("update");
    if (!signer || signer.status !== "pending" || signer.lockedAt) throw new AppError("CONFLICT", "El firmante ya no puede firmar (firmó, rechazó o está bloqueado).");
    const facial = signer.signData.facial;
    // the approval is of this try: a newer try (or none) is not what the reviewer saw
    if (!facial || facial.id !== review.checkId) throw new AppError("CONFLICT", "El firmante hizo otro intento después del revisado; esta revisión ya no aplica.");
    const level = identityLevelOf({ method: "id-document", facialPassed: true, reviewApproved: true, reviewRequired: true })!;
    const identity: SignerIdentity = {
      level,
      method: "id-document",
      reviewedBy: input.staff.email,
      at: now.toISOString(),
      check: review.checkId,
      ...(review.sessionId ? { session: review.sessionId } : {}),
      ...(signer.pinfo ? { names: signer.pinfo } : {}),
    };
    // the approved try stays the signer's facial check for a day: approval may come long after the 15 minutes
    const expire = Math.max(facial.expire, Math.floor(now.getTime() / 1000) + APPROVED_FACIAL_VALID_SECONDS);
    await tx
      .update(processSigners)
      .set({ identity, signData: { ...signer.signData, facial: { ...facial, result: true, expire } } })
      .where(eq(processSigners.id, signer.id));
    const signing = review.signRequestedAt !== null;
    const detail = { reviewId: review.id, attempt: review.attempt, signing, names: signer.pinfo, soleReviewerException };
    await recordProcessEvent({ processId: review.processId, organizationId: review.organizationId, kind: "identity_review_approved", signerId: signer.id, actor: input.staff.email, detail }, tx);
    await recordAuditEvent({ organizationId: review.organizationId, actor: input.staff.email, action: "identity_review.approved", target: review.processId, detail: { reviewId: review.id, signerId: signer.id, level, soleReviewerException } }, tx);
    if (soleReviewerException) {
      await recordAuditEvent({ organizationId: review.organizationId, actor: input.staff.email, action: "identity_review.sole_reviewer_exception", target: review.processId, detail: { reviewId: review.id, signerId: signer.id } }, tx);
    }
    if (signing) await enqueue({ kind: "identity.sign_after_review", payload: { reviewId: review.id }, organizationId: review.organizationId, maxAttempts: 5 }, tx);
    return { signing, soleReviewerException };
  });
}
