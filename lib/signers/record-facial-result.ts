import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { IdDocumentEvidence } from "./judge-facial-try";
import type { LivenessChallenge } from "@/lib/faces/assess-liveness";
import { identityReviews, processSigners, type FacialCheck, type IdentityReviewCard } from "@/db/schema";
import type { SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { hasPendingReview } from "@/lib/identity-assurance/find-identity-review";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import type { SignerClient } from "./describe-signer-client";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";
import { actingSigner, resolveSigningLink, type SigningContext } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/** Everything the server judged in one try, kept for the audit trail and the evidence (never sent to the browser). */
export type FacialEvaluation = {
  reference: "registry" | "id-document";
  /** How the ID document showed the signer's number, when it was the reference. */
  idDocument?: IdDocumentEvidence;
  challenges: LivenessChallenge[];
  live: boolean;
  livenessReasons: string[];
  similarity: number;
  threshold: number;
  decision: "match" | "no-match";
  durationMs: number;
};

/** How long a passed facial check authorizes signing. */
export const FACIAL_VALID_SECONDS = 15 * 60;

/**
 * Stores the outcome of the facial challenge (the face matcher decides `result`; `score` is kept
 * for the audit trail). At most 3 tries per signer: the third failure locks the signer.
 */
export async function recordFacialResult(
  input: {
    token: string;
    signerId: string;
    attempt: number;
    result: boolean;
    score: number;
    selfieBlobKey: string;
    /** The signer session that made the try: the pass (and an approval of it) counts there only. */
    sessionId?: string;
    evaluation?: FacialEvaluation;
    client?: SignerClient;
    /** The level this passed try proved (registry, or document when the organization does not review). */
    identity?: SignerIdentity;
    /** A passed match on the signer's own ID photo: queued for staff review instead of a level. */
    review?: { linkId: string; sessionId?: string; cardBlobKey: string; portraitBlobKey: string; card: IdentityReviewCard };
    /** The link as it was when the try was claimed: a try already evaluated is recorded even if a parallel one locked the signer meanwhile. */
    claimedWith?: SigningContext;
  },
  db: Db,
): Promise<{ result: boolean; attemptsLeft: number; locked: boolean; facial: FacialCheck }> {
  const { claimedWith } = input;
  const context = claimedWith ?? (await resolveSigningLink({ token: input.token }, db));
  const signer = claimedWith ? claimedWith.signers.find((s) => s.id === input.signerId)! : actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const { process } = context;
  return db.transaction(async (tx) => {
    // the signer's row is locked: two parallel tries each checked "no pending review" before any lock,
    // and the second insert broke the one-pending-review constraint (a 500 whose query held the card)
    const [current] = await tx.select({ signData: processSigners.signData }).from(processSigners).where(eq(processSigners.id, signer.id)).for("update");
    if (input.review && (await hasPendingReview(signer.id, tx as unknown as Db))) throw new SignerFlowError("identity_under_review");
    const counted = { attempts: input.attempt, signData: current.signData };
    const facial: FacialCheck = {
      result: input.result,
      msg: input.result ? "Validación facial exitosa" : "El rostro no coincide con el registrado",
      id: crypto.randomUUID(),
      expire: Math.floor(Date.now() / 1000) + FACIAL_VALID_SECONDS,
      selfie: input.selfieBlobKey,
      ...(input.sessionId ? { session: input.sessionId } : {}),
    };
    const locked = !input.result && counted.attempts >= MAX_FACIAL_ATTEMPTS;
    await tx
      .update(processSigners)
      .set({ signData: { ...counted.signData, facial }, identity: input.identity ? { ...input.identity, check: facial.id } : null, ...(locked ? { lockedAt: new Date() } : {}) })
      .where(eq(processSigners.id, signer.id));
    if (input.review) {
      await tx.insert(identityReviews).values({
        organizationId: process.organizationId,
        processId: process.id,
        signerId: signer.id,
        linkId: input.review.linkId,
        sessionId: input.review.sessionId ?? null,
        attempt: input.attempt,
        checkId: facial.id,
        cardBlobKey: input.review.cardBlobKey,
        portraitBlobKey: input.review.portraitBlobKey,
        selfieBlobKey: input.selfieBlobKey,
        card: input.review.card,
        client: input.client ?? null,
      });
      await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "identity_review_requested", signerId: signer.id, detail: { attempt: input.attempt, checkId: facial.id } }, tx);
    }
    await recordProcessEvent(
      {
        processId: process.id,
        organizationId: process.organizationId,
        kind: "facial_recorded",
        signerId: signer.id,
        detail: { result: input.result, score: input.score, attempt: counted.attempts, checkId: facial.id, ...(input.evaluation ?? {}), client: input.client },
      },
      tx,
    );
    return { result: input.result, attemptsLeft: MAX_FACIAL_ATTEMPTS - counted.attempts, locked, facial };
  });
}
