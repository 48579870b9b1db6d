import type { Db } from "@/db/client";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import { loadPlatformPki } from "./load-platform-pki";
import { currentPlatformCrls } from "./publish-crl";
import { documentTimeStamperFor, type TsaSettings } from "./time-stamp-authority";

/**
 * The certificates and CRLs a DSS needs for a signature by `signerCertificates`. Called before the
 * signature is made, so every CRL is issued at or after the notBefore of each certificate it covers
 * (signer, issuing CA, TSA) and at or before the signature time-stamp.
 */
export async function validationData(signerCertificates: Uint8Array[], db: Db, settings: TsaSettings) {
  const pki = await loadPlatformPki(db, settings);
  const certificates = uniqueDer([...signerCertificates, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer]);
  const coveringSince = new Date(Math.max(...certificates.map((der) => readX509Certificate(der).notBefore.getTime())));
  return { certificates, crls: await currentPlatformCrls(db, settings, coveringSince) };
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
export async function addValidationData(pdf: Uint8Array, signerCertificates: Uint8Array[], db: Db, settings: TsaSettings): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, await validationData(signerCertificates, db, settings));
}

/** PAdES B-LTA: the validation data above, then a document time stamp (carrying the TSA certificate) over everything. */
export async function finishDocumentForLongTerm(pdf: Uint8Array, signerCertificates: Uint8Array[], db: Db, settings: TsaSettings): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, { ...(await validationData(signerCertificates, db, settings)), timestamp: await documentTimeStamperFor(db, settings) });
}
