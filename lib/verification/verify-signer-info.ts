import { createHash, createPublicKey, verify } from "node:crypto";
import { digestNames, hashOfSignature } from "@/lib/pki/signature-algorithms";
import type { SignedDataReading } from "./read-signed-data";
import { readCertificate, readCertificateFields } from "./check-pki-signatures";

export { digestNames };

export class SignerInfoError extends Error {
  constructor(
    readonly reason: "digest-mismatch" | "signature-invalid",
    message: string,
  ) {
    super(message);
  }
}

export function digestOf(algorithmOid: string, data: Uint8Array): Buffer {
  const name = digestNames[algorithmOid];
  if (!name) throw new SignerInfoError("signature-invalid", `unsupported digest algorithm ${algorithmOid}`);
  return createHash(name).update(data).digest();
}

/** The certificate the SignerInfo names (issuer and serial, or subject key identifier) among `candidates`. */
export function findSignerCertificate(cms: SignedDataReading, candidates: Uint8Array[]): Uint8Array | undefined {
  const id = cms.signerId;
  return candidates.find((der) => {
    try {
      if ("keyIdentifierHex" in id) {
        const extension = readCertificate(der).getExtension("2.5.29.14");
        return extension !== null && Buffer.from(extension.value).toString("hex").endsWith(id.keyIdentifierHex);
      }
      const fields = readCertificateFields(der);
      const serialHex = Buffer.from(fields.serialNumberDer.subarray(2)).toString("hex");
      return Buffer.from(fields.issuerDer).equals(Buffer.from(id.issuerDer)) && stripZero(serialHex) === stripZero(id.serialHex);
    } catch {
      return false;
    }
  });
}

const stripZero = (hex: string) => hex.replace(/^(00)+(?=..)/, "");

/**
 * Checks one SignerInfo over `content` (the signed byte ranges, or the eContent when the CMS
 * encapsulates it): content-type and message-digest attributes, the signing-certificate binding when
 * present (`requireBinding` for CAdES), and the signature value with `certificateDer`'s key.
 * Throws SignerInfoError naming the first failure.
 */
export function verifySignerInfo(cms: SignedDataReading, content: Uint8Array, certificateDer: Uint8Array, { requireBinding = false } = {}): void {
  const key = createPublicKey({ key: Buffer.from(readCertificateFields(certificateDer).subjectPublicKeyInfoDer), format: "der", type: "spki" });
  const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: "der" as const } : key;
  const digestName = digestNames[cms.digestAlgorithmOid];
  if (!digestName) throw new SignerInfoError("signature-invalid", `unsupported digest algorithm ${cms.digestAlgorithmOid}`);
  const hashName = hashOfSignature(cms.signatureAlgorithmOid, cms.digestAlgorithmOid);
  if (!hashName) throw new SignerInfoError("signature-invalid", `unsupported signature algorithm ${cms.signatureAlgorithmOid}`);

  if (!cms.signedAttributesDer) {
    // legacy PKCS#7 without attributes: the signature covers the content itself
    if (requireBinding) throw new SignerInfoError("signature-invalid", "the SignerInfo has no signed attributes");
    if (!verify(hashName, content, options, cms.signatureValue)) throw new SignerInfoError("signature-invalid", "the signature value does not verify");
    return;
  }
  if (cms.contentTypeAttribute === undefined) throw new SignerInfoError("signature-invalid", "no content-type signed attribute");
  if (cms.contentTypeAttribute !== cms.eContentTypeOid) throw new SignerInfoError("signature-invalid", "the content-type attribute does not match the content");
  if (!cms.messageDigest) throw new SignerInfoError("signature-invalid", "no message-digest signed attribute");
  if (!digestOf(cms.digestAlgorithmOid, content).equals(Buffer.from(cms.messageDigest))) {
    throw new SignerInfoError("digest-mismatch", "message-digest does not match the signed bytes");
  }
  if (cms.certificateBindings.length === 0 && requireBinding) throw new SignerInfoError("signature-invalid", "no signing-certificate-v2 attribute");
  for (const binding of cms.certificateBindings.slice(0, 1)) {
    if (!digestOf(binding.hashAlgorithmOid, certificateDer).equals(Buffer.from(binding.hash))) {
      throw new SignerInfoError("signature-invalid", "signing-certificate-v2 names another certificate");
    }
  }
  if (!verify(hashName, cms.signedAttributesDer, options, cms.signatureValue)) throw new SignerInfoError("signature-invalid", "the signature value does not verify");
}
