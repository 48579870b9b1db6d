import * as asn1js from "asn1js";
import { createHash, createPublicKey, verify } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";
import { parseCertificateFields } from "@/lib/pki/parse-certificate-fields";
import { readSignedData, type SignedDataReading } from "@/lib/pki/read-signed-data";
import { digestNames, hashOfSignature } from "@/lib/pki/signature-algorithms";

const invalid = (message: string) => new PkiError("INVALID_CMS", message);

/** Whether the SignerInfo's issuerAndSerialNumber names this certificate (a key identifier names none first). */
function namedBySignerId(signerId: SignedDataReading["signerId"], certificate: Uint8Array): boolean {
  if (!("issuerDer" in signerId)) return false;
  const fields = parseCertificateFields(certificate);
  const serial = asn1js.fromBER(fields.serialNumberDer).result;
  if (!(serial instanceof asn1js.Integer)) return false;
  return Buffer.from(fields.issuerDer).equals(Buffer.from(signerId.issuerDer)) && Buffer.from(serial.valueBlock.valueHexView).toString("hex") === signerId.serialHex;
}

/**
 * Checks the first SignerInfo of a CMS SignedData: messageDigest against the content (embedded
 * eContent, or `detachedContent`) and the signature over the signed attributes, with a certificate
 * carried in the CMS. Returns that certificate. Does not judge trust: chains are the validator's job.
 */
export function verifyCmsSignature(cmsDer: Uint8Array, detachedContent?: Uint8Array): { signerCertificateDer: Uint8Array } {
  let cms: SignedDataReading;
  try {
    cms = readSignedData(cmsDer);
  } catch (error) {
    throw invalid(`The CMS is unreadable: ${error instanceof Error ? error.message : "unknown structure"}`);
  }
  const contentBytes = cms.encapsulatedContent ?? detachedContent;
  if (!contentBytes) throw invalid("Detached CMS needs the content to verify");
  if (!cms.signedAttributesDer) throw invalid("The SignerInfo has no signed attributes");
  const digestName = digestNames[cms.digestAlgorithmOid];
  if (!digestName) throw invalid("Unsupported digest algorithm");
  if (!cms.messageDigest) throw invalid("No messageDigest attribute");
  if (!Buffer.from(cms.messageDigest).equals(createHash(digestName).update(contentBytes).digest())) {
    throw invalid("messageDigest does not match the content");
  }

  const hashName = hashOfSignature(cms.signatureAlgorithmOid, cms.digestAlgorithmOid);
  if (!hashName) throw invalid(`Unsupported signature algorithm ${cms.signatureAlgorithmOid}`);
  // the reader hands the signed attributes re-tagged as a SET, the bytes the signature covers (RFC 5652 5.4)
  const signedBytes = cms.signedAttributesDer;

  // try the certificate that sid names first; any other carried certificate can only fail
  const certificates = cms.certificatesDer;
  const named = (certificate: Uint8Array) => namedBySignerId(cms.signerId, certificate);
  for (const certificate of [...certificates.filter(named), ...certificates.filter((c) => !named(c))]) {
    const key = createPublicKey({ key: Buffer.from(parseCertificateFields(certificate).subjectPublicKeyInfoDer), format: "der", type: "spki" });
    const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: "der" as const } : key;
    if (verify(hashName, signedBytes, options, cms.signatureValue)) return { signerCertificateDer: certificate };
  }
  throw invalid(certificates.length ? "The signature does not verify" : "The CMS carries no signer certificate");
}
