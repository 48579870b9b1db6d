import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews } from "@/db/schema";
import { recordProcessEvent } from "@/lib/processes/record-process-event";

/**
 * The signer changed the names an approval froze (issue 36): that approval no longer stands, and
 * the same try (card, portrait, selfie, session) waits for a reviewer again, who now sees the new
 * names. The caller already cleared the signer's level, in this transaction.
 */
export async function reopenIdentityReview(input: { signerId: string; checkId: string | undefined }, tx: Db): Promise<void> {
  if (!input.checkId) return;
  const [approved] = await tx
    .select()
    .from(identityReviews)
    .where(and(eq(identityReviews.signerId, input.signerId), eq(identityReviews.checkId, input.checkId), eq(identityReviews.status, "approved")))
    .orderBy(desc(identityReviews.createdAt))
    .limit(1);
  if (!approved) return;
  const [reopened] = await tx
    .insert(identityReviews)
    .values({
      organizationId: approved.organizationId,
      processId: approved.processId,
      signerId: approved.signerId,
      linkId: approved.linkId,
      attempt: approved.attempt,
      checkId: approved.checkId,
      sessionId: approved.sessionId,
      cardBlobKey: approved.cardBlobKey,
      portraitBlobKey: approved.portraitBlobKey,
      selfieBlobKey: approved.selfieBlobKey,
      card: approved.card,
      client: approved.client,
    })
    .onConflictDoNothing()
    .returning({ id: identityReviews.id });
  await recordProcessEvent(
    { processId: approved.processId, organizationId: approved.organizationId, kind: "identity_review_requested", signerId: approved.signerId, detail: { attempt: approved.attempt, checkId: approved.checkId, voided: approved.id, why: "names_changed", reviewId: reopened?.id } },
    tx,
  );
}
