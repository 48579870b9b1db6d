import type { FacialCheck } from "@/db/schema";
import type { SignerIdentity } from "./identity-level";

/** An eID login counts for the session that made it, and never longer than this (issue 36). */
export const EID_VALID_SECONDS = 30 * 60;

type ProvingSigner = { signChallenges: string[]; identity: SignerIdentity | null; signData: { facial?: FacialCheck } };

/**
 * Why this signer session may not sign on the signer's recorded proof, or null when it may. A proof
 * (facial pass, eID login, approved review) belongs to the signer session (cookie) that made it and
 * to that try: another session on the same link, a forwarded link or a co-signer who types the
 * number, has to prove the identity again. Missing session ids never match (fail closed).
 */
export function sessionProofProblem(signer: ProvingSigner, sessionId: string | undefined, now = Date.now()): "facial_required" | "eid_required" | null {
  const ours = (session: string | undefined) => Boolean(session && sessionId && session === sessionId);
  const identity = signer.identity;
  if (signer.signChallenges.includes("eid")) {
    const fresh = identity?.level === "eid" && Date.parse(identity.at) + EID_VALID_SECONDS * 1000 > now;
    if (!fresh || !ours(identity.session)) return "eid_required";
  }
  if (signer.signChallenges.includes("facial")) {
    const facial = signer.signData.facial;
    if (!facial?.result || facial.expire * 1000 <= now || !ours(facial.session)) return "facial_required";
    // a level proven by another try (or in another session) is not this try's
    if (identity && (!ours(identity.session) || (identity.check !== undefined && identity.check !== facial.id))) return "facial_required";
  }
  return null;
}
