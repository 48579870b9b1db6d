/**
 * How strongly a process signer was identified (issue 25). One level per signer, computed from what
 * actually happened, never from what was configured: the level goes into the evidence, the API and
 * callback (`sign_data.identity`, our extension), the signer certificate (a certificatePolicies OID
 * per level) and /verify.
 *
 * - `eid`: the signer authenticated at the organization's OpenID Connect provider and the provider's
 *   verified document number equals doc_id.
 * - `registry`: liveness passed and the selfie matched a registry portrait (uploaded registry photo or
 *   identity registry adapter) that the signer did not supply.
 * - `document-reviewed`: liveness passed and the selfie matched the portrait of an ID photo the signer
 *   uploaded, and a staff member approved that card.
 * - `document`: the same without review (only where the organization switched review off).
 * - `none`: no identity challenge at all.
 */
export const identityLevels = ["eid", "registry", "document-reviewed", "document", "none"] as const;
export type IdentityLevel = (typeof identityLevels)[number];

/** How the identity was established (`method` in sign_data.identity). */
export const identityMethods = ["oidc", "registry-photo", "identity-registry", "id-document", "none"] as const;
export type IdentityMethod = (typeof identityMethods)[number];

/** Who uploaded a registry portrait, and when (issue 36): `referenceBy` in sign_data.identity. */
export type ReferenceSupplier = { kind: "user" | "credential"; id: string | null; name: string; at: string };

/** Stored on the signer when identification completes; copied into sign_data.identity at signing. */
export type SignerIdentity = {
  level: IdentityLevel;
  method: IdentityMethod;
  /** Staff user id (and e-mail, for display) who approved a self-supplied ID photo. */
  reviewedBy?: string;
  /** ISO 8601 time the level was established (review approval time for document-reviewed). */
  at: string;
  /** For `eid`: the provider's issuer URL. */
  provider?: string;
  /** For `registry`: who supplied the reference portrait the selfie matched, and when. */
  referenceBy?: ReferenceSupplier;
  /** The signer session (cookie) that proved the level: only that session may sign on it. */
  session?: string;
  /** The facial check id (signData.facial.id) of the try that proved it: a newer try voids it. */
  check?: string;
  /** The names the reviewer saw or the provider returned: other names void the proof. */
  names?: { given_name: string; family_name: string };
};

/**
 * Our own OID arc, a UUID-derived arc under 2.25 (ITU-T X.667), which needs no registration:
 * 2.25.<decimal of UUID 29ba9577-c921-4b8c-b12d-b828dde45ed8>. Under it, .1 holds identity levels.
 */
export const FIRMAVIVA_OID_ARC = "2.25.55467146612298050323247193684401479384";
export const IDENTITY_LEVEL_POLICY_ARC = `${FIRMAVIVA_OID_ARC}.1`;

/** certificatePolicies OID of each level, put into the signer certificate. */
export const identityLevelPolicyOids: Record<IdentityLevel, string> = {
  eid: `${IDENTITY_LEVEL_POLICY_ARC}.1`,
  registry: `${IDENTITY_LEVEL_POLICY_ARC}.2`,
  "document-reviewed": `${IDENTITY_LEVEL_POLICY_ARC}.3`,
  document: `${IDENTITY_LEVEL_POLICY_ARC}.4`,
  none: `${IDENTITY_LEVEL_POLICY_ARC}.5`,
};

/** The level a policy OID names, or null for any other OID. */
export function identityLevelOfPolicyOid(oid: string): IdentityLevel | null {
  const found = (Object.entries(identityLevelPolicyOids) as [IdentityLevel, string][]).find(([, value]) => value === oid);
  return found ? found[0] : null;
}

export type IdentityFacts =
  | { method: "oidc"; documentNumberMatched: boolean }
  | { method: "registry-photo" | "identity-registry"; facialPassed: boolean }
  | { method: "id-document"; facialPassed: boolean; reviewApproved: boolean; reviewRequired: boolean }
  | { method: "none" };

/**
 * The level these facts prove, or null when they prove nothing yet (a failed check, or an ID photo
 * awaiting review): a null level never signs.
 */
export function identityLevelOf(facts: IdentityFacts): IdentityLevel | null {
  switch (facts.method) {
    case "oidc":
      return facts.documentNumberMatched ? "eid" : null;
    case "registry-photo":
    case "identity-registry":
      return facts.facialPassed ? "registry" : null;
    case "id-document":
      if (!facts.facialPassed) return null;
      if (facts.reviewApproved) return "document-reviewed";
      return facts.reviewRequired ? null : "document";
    case "none":
      return "none";
  }
}
