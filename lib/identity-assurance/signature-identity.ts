import type { SignerIdentity } from "./identity-level";

/**
 * The identity a signature carries: the level the signer proved, or `none` for a signer asked for no
 * identity challenge. Null means "not proven yet" (an ID photo under review, a check not made) and
 * never signs.
 */
export function signatureIdentityOf(signer: { signChallenges: string[]; identity: SignerIdentity | null }, now = new Date()): SignerIdentity | null {
  if (signer.identity) return signer.identity;
  const challenged = signer.signChallenges.some((challenge) => challenge === "facial" || challenge === "eid");
  return challenged ? null : { level: "none", method: "none", at: now.toISOString() };
}
