import { and, eq, isNull } from "drizzle-orm";
import { identityReviews } from "@/db/schema";
import { findPendingReview } from "@/lib/identity-assurance/find-identity-review";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { assertEveryPageShown } from "./record-pages-shown";
import { signAsProcessSigner, type ProcessSigningDeps, type SignAsProcessSignerInput } from "./sign-as-process-signer";
import { SignerFlowError } from "./signer-flow-error";

export type SignAnswer = { processStatus: "pending" | "signed"; completed: boolean; underReview?: boolean };

/**
 * The signer's "Firmar": signs now, or, while their ID photo awaits staff review, records that they
 * asked to sign (after the same checks a signature needs: their turn, names, every page shown) so the
 * approval produces the signature. An approval that won the race meanwhile leaves nothing to record:
 * the signature is then made at once.
 */
export async function signOrAwaitReview(input: SignAsProcessSignerInput & { sessionId: string }, services: ProcessSigningDeps): Promise<SignAnswer> {
  const { db } = services;
  const pending = await findPendingReview(input.signerId, db);
  if (pending) {
    // only the session that made the reviewed try may ask for its signature: the approval will sign for it
    if (!pending.sessionId || pending.sessionId !== input.sessionId) throw new SignerFlowError("facial_required");
    const plan = await prepareSignerSignature(input, db);
    await assertEveryPageShown(plan, db);
    const recorded = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(identityReviews)
        .set({ signRequestedAt: new Date(), signRequestClient: input.client ?? null })
        .where(and(eq(identityReviews.id, pending.id), eq(identityReviews.status, "pending"), isNull(identityReviews.signRequestedAt)))
        .returning({ id: identityReviews.id });
      if (row) await recordProcessEvent({ processId: plan.processId, organizationId: plan.organizationId, kind: "sign_requested", signerId: input.signerId, detail: { reviewId: pending.id, client: input.client } }, tx);
      return row !== undefined;
    });
    // asked twice while pending: still under review
    if (recorded || (await findPendingReview(input.signerId, db))) return { processStatus: "pending", completed: false, underReview: true };
  }
  return signAsProcessSigner(input, services);
}
