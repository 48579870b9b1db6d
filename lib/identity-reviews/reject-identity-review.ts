import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews, processSigners } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { AppError } from "@/lib/errors";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { MAX_FACIAL_ATTEMPTS } from "@/lib/signers/open-signing-link";
import type { ReviewDecider } from "./approve-identity-review";

/**
 * A staff member rejects a self-supplied ID photo with a reason the signer sees. The try it decided
 * was counted when it was made, so it now stands as a failed try: the signer has the tries left,
 * and the third failure locks them, as with any failed facial check.
 */
export async function rejectIdentityReview(input: { reviewId: string; reason: string; staff: ReviewDecider }, db: Db): Promise<{ locked: boolean; attemptsLeft: number }> {
  const reason = input.reason.trim();
  if (reason.length < 3 || reason.length > 300) throw new AppError("VALIDATION", "Indique al firmante el motivo del rechazo (3 a 300 caracteres).", "reason");
  return db.transaction(async (tx) => {
    const now = new Date();
    const [review] = await tx
      .update(identityReviews)
      .set({ status: "rejected", decidedAt: now, decidedBy: input.staff.userId, decidedByEmail: input.staff.email, reason })
      .where(and(eq(identityReviews.id, input.reviewId), eq(identityReviews.organizationId, input.staff.organizationId), eq(identityReviews.status, "pending")))
      .returning();
    if (!review) throw new AppError("CONFLICT", "La revisión ya fue decidida o no existe.");
    const [signer] = await tx.select().from(processSigners).where(eq(processSigners.id, review.signerId)).for("update");
    const locked = signer.facialAttempts >= MAX_FACIAL_ATTEMPTS;
    const facial = signer.signData.facial ? { ...signer.signData.facial, result: false, msg: reason } : undefined;
    await tx
      .update(processSigners)
      .set({ identity: null, signData: { ...signer.signData, ...(facial ? { facial } : {}) }, ...(locked && !signer.lockedAt ? { lockedAt: now } : {}) })
      .where(eq(processSigners.id, signer.id));
    await recordProcessEvent({ processId: review.processId, organizationId: review.organizationId, kind: "identity_review_rejected", signerId: signer.id, actor: input.staff.email, detail: { reviewId: review.id, attempt: review.attempt, reason, locked } }, tx);
    await recordAuditEvent({ organizationId: review.organizationId, actor: input.staff.email, action: "identity_review.rejected", target: review.processId, detail: { reviewId: review.id, signerId: signer.id, reason, locked } }, tx);
    return { locked, attemptsLeft: Math.max(0, MAX_FACIAL_ATTEMPTS - signer.facialAttempts) };
  });
}
