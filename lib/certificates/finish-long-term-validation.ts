import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import type { CertificateTasks } from "./certificate-tasks";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { readCertificate } from "@/lib/pki/check-pki-signatures";
import { fetchOutsideRevocation } from "./fetch-outside-revocation";
import { loadPlatformPki } from "./load-platform-pki";
import { currentPlatformCrls } from "./publish-crl";
import { documentTimeStamperFor, type TsaSettings } from "./time-stamp-authority";

/** For certificates our CAs did not issue: may their CRL addresses be private (as for callbacks), and which outside roots we know. */
export type OutsideRevocationOptions = { allowPrivate: () => Promise<boolean>; trustAnchorsDer: Uint8Array[] };

/** What validation data needs: the database, the TSA settings, and the pool that judges outside CRLs. */
export type ValidationDataDeps = { db: Db; settings: TsaSettings; pools: { revocation: TaskRunner<CertificateTasks> } };

/**
 * The certificates and CRLs a DSS needs for a signature by `signerCertificates`. Called before the
 * signature is made, so every CRL is issued at or after the notBefore of each certificate it covers
 * (signer, issuing CA, TSA) and at or before the signature time-stamp. Certificates from outside
 * CAs get the CRL at their distribution point; `unavailable` lists those for which none could be
 * had (the output then reaches B-T only, and says so).
 */
export async function validationData(
  { signerCertificates, outside = { allowPrivate: async () => false, trustAnchorsDer: [] } }: { signerCertificates: Uint8Array[]; outside?: OutsideRevocationOptions },
  { db, settings, pools }: ValidationDataDeps,
) {
  const pki = await loadPlatformPki({ db, settings });
  const platformIssuers = new Set([pki.root.certificateDer, pki.issuing.certificateDer].map((der) => readCertificate(der).subject));
  const fetched = await fetchOutsideRevocation(signerCertificates, {
    issuersDer: outside.trustAnchorsDer,
    isPlatformIssued: (certificate) => platformIssuers.has(certificate.issuer),
    allowPrivate: outside.allowPrivate,
    revocationPool: pools.revocation,
  });
  const certificates = uniqueDer([...signerCertificates, ...fetched.certificates, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer]);
  const platformCovered = certificates.filter((der) => platformIssuers.has(readCertificate(der).issuer));
  const coveringSince = new Date(Math.max(...platformCovered.map((der) => readCertificate(der).notBefore.getTime())));
  return {
    certificates,
    crls: [...fetched.crls, ...(await currentPlatformCrls({ coveringSince }, { db, settings }))],
    unavailable: fetched.missing.map((m) => `${m.subject}: ${m.reason}`),
  };
}

function uniqueDer(items: Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = Buffer.from(item).toString("base64");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * PAdES B-LT: a DSS revision with the certificates of the signer, the CAs and the TSA, and the CAs'
 * current CRLs. Our signature time-stamp tokens carry no certificates (poppler's NSS check fails on
 * every other signature when they do, see docs/pdf-engine.md), so the TSA certificate lives here.
 */
export async function addValidationData({ pdf, signerCertificates }: { pdf: Uint8Array; signerCertificates: Uint8Array[] }, deps: ValidationDataDeps): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, await validationData({ signerCertificates }, deps));
}

/** PAdES B-LTA: the validation data above, then a document time stamp (carrying the TSA certificate) over everything. */
export async function finishDocumentForLongTerm({ pdf, signerCertificates }: { pdf: Uint8Array; signerCertificates: Uint8Array[] }, deps: ValidationDataDeps): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, { ...(await validationData({ signerCertificates }, deps)), timestamp: await documentTimeStamperFor(deps) });
}
