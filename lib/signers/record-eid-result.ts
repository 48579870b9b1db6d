import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processSigners } from "@/db/schema";
import { identityLevelOf, type SignerIdentity } from "@/lib/identity-assurance/identity-level";
import type { EidIdentity } from "@/lib/identity-assurance/eid/oidc-relying-party";
import type { EidFailureReason } from "@/lib/identity-assurance/eid/eid-failure";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import type { SignerClient } from "./describe-signer-client";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";
import type { SignerRow } from "./resolve-signing-link";

type Counted = { signer: SignerRow; processId: string; organizationId: string; attempt: number; client?: SignerClient };

/**
 * A failed eID try (already counted by claimFacialAttempt, the signer's identity tries): recorded on
 * the timeline with its reason; the third failure locks the signer, as a failed facial check does.
 */
export async function recordEidFailure(input: Counted & { reason: EidFailureReason }, db: Db): Promise<{ locked: boolean; attemptsLeft: number }> {
  const locked = input.attempt >= MAX_FACIAL_ATTEMPTS;
  await db.transaction(async (tx) => {
    if (locked) await tx.update(processSigners).set({ lockedAt: new Date() }).where(eq(processSigners.id, input.signer.id));
    await recordProcessEvent(
      { processId: input.processId, organizationId: input.organizationId, kind: "eid_recorded", signerId: input.signer.id, detail: { result: false, reason: input.reason, attempt: input.attempt, client: input.client } },
      tx,
    );
  });
  return { locked, attemptsLeft: Math.max(0, MAX_FACIAL_ATTEMPTS - input.attempt) };
}

/**
 * The provider vouched for the signer's document number: the signer's identity level becomes `eid`,
 * their identity counts as verified, and the provider's names become theirs (not editable). The
 * level belongs to the signer session that started the login (issue 36).
 */
export async function recordEidSuccess(input: Counted & { identity: EidIdentity; sessionId?: string }, db: Db): Promise<SignerIdentity> {
  const now = new Date();
  const level = identityLevelOf({ method: "oidc", documentNumberMatched: true })!;
  const names = { given_name: input.identity.givenName, family_name: input.identity.familyName };
  // valid in the session that started the login, for at most EID_VALID_SECONDS (session-proof.ts)
  const identity: SignerIdentity = { level, method: "oidc", at: now.toISOString(), provider: input.identity.issuer, names, ...(input.sessionId ? { session: input.sessionId } : {}) };
  await db.transaction(async (tx) => {
    await tx
      .update(processSigners)
      .set({ identity, identityVerifiedAt: now, pinfo: names, namesConfirmedAt: null })
      .where(eq(processSigners.id, input.signer.id));
    await recordProcessEvent(
      {
        processId: input.processId,
        organizationId: input.organizationId,
        kind: "eid_recorded",
        signerId: input.signer.id,
        detail: { result: true, level, issuer: input.identity.issuer, subject: input.identity.subject, attempt: input.attempt, client: input.client },
      },
      tx,
    );
  });
  return identity;
}
