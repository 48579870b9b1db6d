import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { checkCertificateChain } from "./check-certificate-chain";
import type { ValidationMaterial } from "./find-revocation-status";
import { readDssMaterial } from "./read-dss-material";
import type { Revision } from "./read-revisions";
import type { SignatureReport } from "./verification-report";
import type { Anchored, SignatureCheck } from "./verify-one-signature";

// A signature's validation data is looked for in this many revisions after it.
const MAX_REVISIONS_FOR_LEVEL = 16;

/**
 * B-B: a CAdES signature with its signing-certificate binding and no signing-time attribute; B-T:
 * plus a valid signature time-stamp; B-LT: plus a later DSS whose data covers the signer's and the
 * TSA's chains; B-LTA: plus a valid document time-stamp in a revision after that DSS.
 */
export function createLevelJudge(revisions: Revision[], checks: SignatureCheck[], anchorsDer: Uint8Array[]) {
  const dssByRevision = new Map<number, ValidationMaterial>();
  const dssOf = (revision: Revision) => {
    let material = dssByRevision.get(revision.index);
    if (!material) dssByRevision.set(revision.index, (material = readDssMaterial(revision.state() as LazyPdf)));
    return material;
  };

  return async function levelOf(check: SignatureCheck): Promise<SignatureReport["level"]> {
    const { report, cms, signerCertificateDer, placement } = check;
    if (report.kind !== "signature" || report.integrity !== "intact" || !cms || !signerCertificateDer || !placement.ok) return undefined;
    if (report.subFilter !== "ETSI.CAdES.detached" || cms.certificateBindings.length === 0 || cms.signingTime) return undefined;
    if (!report.timeStamp?.valid) return "B-B";
    for (const revision of revisions.slice(placement.revision.index + 1, placement.revision.index + 1 + MAX_REVISIONS_FOR_LEVEL)) {
      const dss = dssOf(revision);
      if (dss.crlsDer.length === 0 && dss.ocspsDer.length === 0) continue;
      const material: Anchored = { certificatesDer: [...cms.certificatesDer, ...dss.certificatesDer], crlsDer: [...cms.crlsDer, ...dss.crlsDer], ocspsDer: dss.ocspsDer, anchorsDer };
      const signer = await checkCertificateChain(signerCertificateDer, material, check.validationTime, "signing");
      const tsa = check.timeStampCertificateDer ? await checkCertificateChain(check.timeStampCertificateDer, material, check.validationTime, "time-stamping") : signer;
      if (signer.revocation !== "good" || tsa.revocation !== "good") continue;
      const archived = checks.some(
        (other) => other.report.kind === "document-timestamp" && other.report.integrity === "intact" && other.report.chain.status !== "invalid" && (other.report.revision ?? -1) > revision.index,
      );
      return archived ? "B-LTA" : "B-LT";
    }
    return "B-T";
  };
}
