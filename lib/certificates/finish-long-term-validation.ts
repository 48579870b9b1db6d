import type { Db } from "@/db/client";
import { finishLongTermValidation } from "@/lib/pdf/add-document-timestamp";
import { loadPlatformPki } from "./load-platform-pki";
import { currentPlatformCrls } from "./publish-crl";
import { timeStamperFor, type TsaSettings } from "./time-stamp-authority";

/** The certificates and current CRLs a DSS needs for a signature by `signerCertificates`. */
export async function validationData(signerCertificates: Uint8Array[], db: Db, settings: TsaSettings) {
  const pki = await loadPlatformPki(db, settings);
  return {
    certificates: [...signerCertificates, pki.issuing.certificateDer, pki.root.certificateDer, pki.tsa.certificateDer],
    crls: await currentPlatformCrls(db, settings),
  };
}

/**
 * PAdES B-LT: a DSS revision with the certificates of the signer, the CAs and the TSA, and the CAs'
 * current CRLs. Our signature time-stamp tokens carry no certificates (poppler's NSS check fails on
 * every other signature when they do, see docs/pdf-engine.md), so the TSA certificate lives here.
 */
export async function addValidationData(pdf: Uint8Array, signerCertificates: Uint8Array[], db: Db, settings: TsaSettings): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, await validationData(signerCertificates, db, settings));
}

/** PAdES B-LTA: the validation data above, then a document time stamp over everything. */
export async function finishDocumentForLongTerm(pdf: Uint8Array, signerCertificates: Uint8Array[], db: Db, settings: TsaSettings): Promise<Uint8Array> {
  return finishLongTermValidation(pdf, { ...(await validationData(signerCertificates, db, settings)), timestamp: await timeStamperFor(db, settings) });
}
