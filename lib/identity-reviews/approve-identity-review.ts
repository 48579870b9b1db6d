import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews, processSigners } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { identityLevelOf, type SignerIdentity } from "@/lib/identity-assurance/identity-level";

/** How long an approval lets a signer who had not asked to sign yet do so without a new facial try. */
export const APPROVED_FACIAL_VALID_SECONDS = 24 * 60 * 60;

export type ReviewDecider = { userId: string; email: string; organizationId: string };

/**
 * A staff member approves a self-supplied ID photo: the signer's level becomes document-reviewed.
 * When the signer already asked to sign, the signature is queued (outbox) in the same transaction,
 * so the approval and the work it promises commit together. The pending→approved step is one
 * conditional UPDATE: two reviewers deciding at once cannot both win.
 */
export async function approveIdentityReview(input: { reviewId: string; staff: ReviewDecider }, db: Db): Promise<{ signing: boolean }> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [review] = await tx
      .update(identityReviews)
      .set({ status: "approved", decidedAt: now, decidedBy: input.staff.userId, decidedByEmail: input.staff.email })
      .where(and(eq(identityReviews.id, input.reviewId), eq(identityReviews.organizationId, input.staff.organizationId), eq(identityReviews.status, "pending")))
      .returning();
    if (!review) throw new AppError("CONFLICT", "La revisión ya fue decidida o no existe.");
    const [signer] = await tx.select().from(processSigners).where(eq(processSigners.id, review.signerId)).for("update");
    if (!signer || signer.status !== "pending" || signer.lockedAt) throw new AppError("CONFLICT", "El firmante ya no puede firmar (firmó, rechazó o está bloqueado).");
    const level = identityLevelOf({ method: "id-document", facialPassed: true, reviewApproved: true, reviewRequired: true })!;
    const identity: SignerIdentity = { level, method: "id-document", reviewedBy: input.staff.email, at: now.toISOString() };
    const facial = signer.signData.facial;
    // the approved try stays the signer's facial check for a day: approval may come long after the 15 minutes
    const expire = Math.max(facial?.expire ?? 0, Math.floor(now.getTime() / 1000) + APPROVED_FACIAL_VALID_SECONDS);
    await tx
      .update(processSigners)
      .set({ identity, signData: { ...signer.signData, ...(facial ? { facial: { ...facial, result: true, expire } } : {}) } })
      .where(eq(processSigners.id, signer.id));
    const signing = review.signRequestedAt !== null;
    await recordProcessEvent({ processId: review.processId, organizationId: review.organizationId, kind: "identity_review_approved", signerId: signer.id, actor: input.staff.email, detail: { reviewId: review.id, attempt: review.attempt, signing } }, tx);
    await recordAuditEvent({ organizationId: review.organizationId, actor: input.staff.email, action: "identity_review.approved", target: review.processId, detail: { reviewId: review.id, signerId: signer.id, level } }, tx);
    if (signing) await enqueue({ kind: "identity.sign_after_review", payload: { reviewId: review.id }, organizationId: review.organizationId, maxAttempts: 5 }, tx);
    return { signing };
  });
}
