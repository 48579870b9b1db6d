import { x509 } from "@/lib/pki/x509-provider";
import { isCertificateSignedBy, readCertificate, readUsage } from "@/lib/pki/check-pki-signatures";
import { findRevocationStatus, type RevocationStatus, type ValidationMaterial } from "./find-revocation-status";

const MAX_CHAIN_LENGTH = 8;
const TIME_STAMPING_EKU = "1.3.6.1.5.5.7.3.8";

export type ChainPurpose = "signing" | "time-stamping";

export type ChainResult = {
  /** trusted: reaches one of our anchors; untrusted: a sound chain to nobody we trust; invalid: broken rules. */
  status: "trusted" | "untrusted" | "invalid";
  reason?: string;
  /** Leaf first, anchor (when reached) last. */
  chainDer: Uint8Array[];
  /** good: revocation data covers every certificate below the anchor and none is revoked at `at`. */
  revocation: RevocationStatus;
  subject?: string;
};

/**
 * Builds the path from `leafDer` to a trust anchor through the certificates carried by the CMS and the
 * DSS, and judges it at `at` (the time-stamped time when there is one): each signature, validity
 * dates, basicConstraints and keyUsage of every issuer, the leaf's key usage for `purpose`, and
 * revocation from the CRLs and OCSP responses of `material`.
 */
export async function checkCertificateChain(
  leafDer: Uint8Array,
  material: ValidationMaterial & { anchorsDer: Uint8Array[] },
  at: Date,
  purpose: ChainPurpose,
  /** Revocation is judged at this time: the validation time when a trusted time-stamp proves it, else now. */
  revocationAt: Date = at,
): Promise<ChainResult> {
  const anchors = material.anchorsDer.flatMap(tryRead);
  const pool = [...anchors, ...material.certificatesDer.flatMap(tryRead)];
  const leaf = readCertificate(leafDer);
  const chain: x509.X509Certificate[] = [leaf];
  const result = (status: ChainResult["status"], reason?: string, revocation: RevocationStatus = "unknown"): ChainResult => ({
    status,
    reason,
    chainDer: chain.map((certificate) => new Uint8Array(certificate.rawData)),
    revocation,
    subject: leaf.subject,
  });

  // the path is built first: a rule broken in a chain that reaches nobody we trust makes it untrusted
  // (anyone can issue such certificates), only one that reaches an anchor makes the signature invalid
  const problems: string[] = [];
  const leafProblem = checkLeaf(leaf, purpose);
  if (leafProblem) problems.push(leafProblem);
  let anchored = anchors.some((anchor) => anchor.equal(leaf));
  while (!anchored) {
    const current = chain[chain.length - 1];
    if (chain.length > MAX_CHAIN_LENGTH) return result("untrusted", `no trust anchor within ${MAX_CHAIN_LENGTH} certificates`);
    const issuer = await findIssuer(current, pool, chain);
    if (!issuer) {
      const selfSigned = current.subject === current.issuer && (await isCertificateSignedBy(current, current));
      const end = selfSigned ? (chain.length === 1 ? "self-signed certificate that is not a trust anchor here" : `the chain ends at "${current.subject}", which is not a trust anchor here`) : `incomplete chain: no issuer certificate for "${current.issuer}"`;
      return result("untrusted", [end, ...problems].join("; "));
    }
    chain.push(issuer);
    anchored = anchors.some((anchor) => anchor.equal(issuer));
    if (!anchored) {
      const problem = checkIssuer(issuer, intermediatesBelow(chain));
      if (problem) problems.push(problem);
    }
  }
  if (problems.length) return result("invalid", problems[0]);

  for (const certificate of chain) {
    if (at < certificate.notBefore || at > certificate.notAfter) {
      return result("invalid", `certificate "${certificate.subject}" was not valid at ${at.toISOString()}`);
    }
  }
  // the anchor is trusted as configured; below it each certificate needs revocation data
  const revocation = await findRevocationStatus(chain, material, revocationAt);
  if (revocation.status === "revoked") return result("invalid", revocation.reason, "revoked");
  return result("trusted", undefined, revocation.status);
}

function tryRead(der: Uint8Array): x509.X509Certificate[] {
  try {
    return [readCertificate(der)];
  } catch {
    return [];
  }
}

async function findIssuer(child: x509.X509Certificate, pool: x509.X509Certificate[], chain: x509.X509Certificate[]) {
  for (const candidate of pool) {
    if (candidate.subject !== child.issuer || chain.some((link) => link.equal(candidate))) continue;
    if (await isCertificateSignedBy(child, candidate)) return candidate;
  }
  return undefined;
}

function checkLeaf(leaf: x509.X509Certificate, purpose: ChainPurpose): string | undefined {
  const { keyUsage, extendedKeyUsage } = readUsage(leaf);
  if (keyUsage !== undefined && !(keyUsage & (x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation))) {
    return `certificate "${leaf.subject}" may not sign (keyUsage)`;
  }
  if (purpose === "time-stamping") {
    // RFC 3161 2.3: the TSA certificate carries exactly the critical timeStamping purpose
    if (!extendedKeyUsage?.includes(TIME_STAMPING_EKU)) return `certificate "${leaf.subject}" is not a time-stamping certificate`;
  }
  return undefined;
}

/**
 * The CA certificates between the leaf and the last certificate of `chain` (its newest issuer) that
 * count against that issuer's pathLenConstraint: RFC 5280 4.2.1.9 counts the non-self-issued
 * intermediate certificates that follow it, not the leaf, and not a self-issued key rollover.
 */
function intermediatesBelow(chain: x509.X509Certificate[]): number {
  return chain.slice(1, -1).filter((certificate) => certificate.subject !== certificate.issuer).length;
}

function checkIssuer(issuer: x509.X509Certificate, intermediates: number): string | undefined {
  const { basicConstraints, keyUsage } = readUsage(issuer);
  if (!basicConstraints?.ca) return `certificate "${issuer.subject}" issues certificates but is not a CA (basicConstraints)`;
  if (basicConstraints.pathLength !== undefined && intermediates > basicConstraints.pathLength) return `path length of "${issuer.subject}" exceeded`;
  if (keyUsage !== undefined && !(keyUsage & x509.KeyUsageFlags.keyCertSign)) return `certificate "${issuer.subject}" may not sign certificates (keyUsage)`;
  return undefined;
}
