import type { IdentityLevel } from "@/lib/identity-assurance/identity-level";
import type { Change } from "./classify-revision-changes";

/**
 * ranges-invalid: the byte ranges or their placement are not those of a genuine signature (USF, wrapping).
 * unsupported: an algorithm or key we cannot check here; nothing is proven either way.
 */
export type IntegrityResult = "intact" | "digest-mismatch" | "ranges-invalid" | "signature-invalid" | "unreadable" | "unsupported";

/**
 * valid: intact, trusted, nothing disallowed after it. changed: valid, but a later revision changed
 * what it signed. untrusted: intact, but its chain ends at nobody we trust. unverifiable: it cannot be
 * checked here (an algorithm we do not implement), which is neither proof of a forgery nor of
 * integrity. invalid: a proven mismatch (digest, signature value, byte range), revoked or outside
 * its certificate's validity.
 */
export type SignatureStatus = "valid" | "changed" | "untrusted" | "unverifiable" | "invalid";

export type PadesLevel = "B-B" | "B-T" | "B-LT" | "B-LTA";

export type SignatureReport = {
  /** "document-timestamp" for /SubFilter /ETSI.RFC3161 (a time stamp over the document, no signer). */
  kind: "signature" | "document-timestamp";
  fieldName?: string;
  subFilter?: string;
  signer?: string;
  /** O of the signer's certificate: for our holder certificates, the organization that asserted the identity. */
  signerOrganization?: string;
  signingTime?: { at: string; source: "cms" | "pdf" | "timestamp" };
  /** Signature time stamp (RFC 3161 token in the unsigned attributes), when there is one. */
  timeStamp?: {
    at: string;
    matchesSignature: boolean;
    valid: boolean;
    trusted: boolean;
    authority?: string;
    revocation: "good" | "revoked" | "unknown";
    detail?: string;
  };
  integrity: IntegrityResult;
  /** Algorithms that verified but are weak today ("SHA-1"): reported, not treated as broken. */
  weakAlgorithms?: string[];
  /** Technical reason when a check fails, for support; not translated. */
  detail?: string;
  /** The signer (or TSA) certificate chains to one of our trust anchors and breaks no rule at the validation time. */
  trusted: boolean;
  /** The signed byte range does not reach the end of the file: later revisions exist. */
  modifiedAfter: boolean;
  coversWholeDocument: boolean;
  status: SignatureStatus;
  level?: PadesLevel;
  /** How strongly the signer was identified, from our certificatePolicies OID (lib/identity-assurance); only for trusted certificates. */
  identityLevel?: IdentityLevel;
  /** SHA-256 (hex) of the signer certificate whose signature verified. */
  signerCertificateSha256?: string;
  /**
   * For a process signature of this platform at level `eid`: the issuer of the eID provider that
   * authenticated the signer, as our database recorded it for that signature (`sign_data.identity.provider`).
   */
  eidIssuer?: string;
  /** Index of the revision this signature closes (0: the original document). */
  revision?: number;
  chain: {
    status: "trusted" | "untrusted" | "invalid" | "unchecked";
    reason?: string;
    revocation: "good" | "revoked" | "unknown";
    validatedAt?: { at: string; source: "timestamp" | "claimed" | "current" };
  };
  /** Changes after this signature that it does not permit, by revision. */
  changesAfter: Change[];
  /** Later revisions it permits: validation data, time-stamps, other signatures. */
  allowedChangesAfter: Change[];
};

export type VerificationReport = {
  fileSize: number;
  sha256: string;
  /** The worst status of all signatures; "unsigned" when there are none. */
  verdict: SignatureStatus | "unsigned";
  revisions: number;
  /** Structural faults a reader tolerates (an xref offset off by some bytes) and that were read past; none changes the verdict. */
  findings: string[];
  signatures: SignatureReport[];
};
