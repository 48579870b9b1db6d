import { checkCertificateChain } from "@/lib/verification/check-certificate-chain";
import { readSignedData } from "@/lib/pki/read-signed-data";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { verifyTimeStampToken } from "@/lib/verification/verify-time-stamp-token";
import { findSignerCertificate, verifySignerInfo } from "@/lib/verification/verify-signer-info";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type BuiltSignature = {
  /** The CMS this request embedded in /Contents. */
  cmsDer: Uint8Array;
  /** SHA-256 of the signed byte ranges, as this request hashed them for the CMS. */
  byteRangeDigest: Uint8Array;
  /** What this request wrote into the DSS revision after the signature. */
  dss: { certificates: Uint8Array[]; crls: Uint8Array[] };
  /** The anchors a validator of our outputs starts from (our root, configured ones, the signer chain's own root). */
  anchorsDer: Uint8Array[];
};

/**
 * The PAdES level of the signature this request appended, measured on what it built rather than by
 * verifying the whole output again: the CMS against the digest we hashed, its signature time-stamp,
 * and the signer's and the TSA's chains against the DSS data we wrote, by the verifier's own rules
 * (createLevelJudge). The structure of the whole file is checked by the sampled full verification.
 * null where the full verifier would report no level (a broken chain, a CMS that does not verify).
 */
export async function deriveStampLevel(built: BuiltSignature): Promise<PadesLevel | null> {
  let cms;
  try {
    cms = readSignedData(built.cmsDer, { readCertificate });
  } catch {
    return null;
  }
  const dssMaterial = { certificatesDer: built.dss.certificates, crlsDer: built.dss.crls, ocspsDer: [], anchorsDer: built.anchorsDer };
  const signerCertificate = findSignerCertificate(cms, [...cms.certificatesDer, ...built.dss.certificates]);
  if (!signerCertificate || !cms.messageDigest || !Buffer.from(cms.messageDigest).equals(Buffer.from(built.byteRangeDigest))) return null;
  try {
    verifySignerInfo(cms, new Uint8Array(0), signerCertificate, { requireBinding: true, contentDigest: built.byteRangeDigest });
  } catch {
    return null;
  }
  if (cms.certificateBindings.length === 0 || cms.signingTime) return null;

  let validationTime = new Date();
  let timeStamp: Awaited<ReturnType<typeof verifyTimeStampToken>> | undefined;
  for (const index of cms.timeStampTokensDer.keys()) {
    let stamp;
    try {
      // the token is read from the tree parsed with the CMS above, not parsed again
      stamp = await verifyTimeStampToken({ cms, index }, cms.signatureValue, dssMaterial);
    } catch {
      return null;
    }
    if (!stamp.valid) return null;
    if (index === 0) timeStamp = stamp;
  }
  // only a time-stamp from a TSA we trust proves when the signature existed
  const provenTime = timeStamp?.valid && timeStamp.trusted ? timeStamp.at : undefined;
  if (provenTime) validationTime = provenTime;
  const material = { ...dssMaterial, certificatesDer: [...cms.certificatesDer, ...built.dss.certificates], crlsDer: [...cms.crlsDer, ...built.dss.crls] };
  const chain = await checkCertificateChain(signerCertificate, material, validationTime, "signing", provenTime ?? new Date());
  if (chain.status === "invalid") return null;
  if (!timeStamp?.valid) return "B-B";
  if (built.dss.crls.length === 0) return "B-T";
  // the token's TSA chain was judged above against the same DSS data (our CMS carries no CRLs of its own)
  return chain.revocation === "good" && timeStamp.revocation === "good" ? "B-LT" : "B-T";
}
