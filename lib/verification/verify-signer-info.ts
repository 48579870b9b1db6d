import { createHash, verify, type KeyObject } from "node:crypto";
import { digestNameOf, digestNames, hashOfSignerInfo, isPlainEcdsa } from "@/lib/pki/signature-algorithms";
import type { SignedDataReading } from "@/lib/pki/read-signed-data";
import { readCertificate, readCertificateFields, readCertificatePublicKey } from "@/lib/pki/check-pki-signatures";

export { digestNames };

export class SignerInfoError extends Error {
  constructor(
    /** unsupported: an algorithm or key type we cannot check here, which proves nothing either way. */
    readonly reason: "digest-mismatch" | "signature-invalid" | "unsupported",
    message: string,
  ) {
    super(message);
  }
}

export function digestOf(algorithmOid: string, data: Uint8Array): Buffer {
  const name = digestNameOf(algorithmOid);
  if (!name) throw new SignerInfoError("unsupported", `unsupported digest algorithm ${algorithmOid}`);
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
export function verifySignerInfo(cms: SignedDataReading, content: Uint8Array, certificateDer: Uint8Array, { requireBinding = false, contentDigest }: { requireBinding?: boolean; contentDigest?: Uint8Array } = {}): void {
  let key: KeyObject;
  try {
    key = readCertificatePublicKey(certificateDer);
  } catch {
    throw new SignerInfoError("unsupported", "the signer's key type cannot be read here");
  }
  if (key.asymmetricKeyType !== "rsa" && key.asymmetricKeyType !== "ec") throw new SignerInfoError("unsupported", `unsupported key type ${key.asymmetricKeyType}`);
  const options = key.asymmetricKeyType === "ec" ? { key, dsaEncoding: isPlainEcdsa(cms.signatureAlgorithmOid) ? ("ieee-p1363" as const) : ("der" as const) } : key;
  const digestName = digestNameOf(cms.digestAlgorithmOid);
  if (!digestName) throw new SignerInfoError("unsupported", `unsupported digest algorithm ${cms.digestAlgorithmOid}`);
  const hashName = hashOfSignerInfo(cms.signatureAlgorithmOid, cms.digestAlgorithmOid);
  if (!hashName) throw new SignerInfoError("unsupported", `unsupported signature algorithm ${cms.signatureAlgorithmOid}`);
  const verifies = (data: Uint8Array) => {
    try {
      return verify(hashName, data, options, cms.signatureValue);
    } catch {
      // a curve or encoding node cannot handle: not checkable here, not proven wrong
      throw new SignerInfoError("unsupported", `the ${key.asymmetricKeyType} signature cannot be checked here (${cms.signatureAlgorithmOid})`);
    }
  };

  if (!cms.signedAttributesDer) {
    // legacy PKCS#7 without attributes: the signature covers the content itself
    if (requireBinding) throw new SignerInfoError("signature-invalid", "the SignerInfo has no signed attributes");
    if (!verifies(content)) throw new SignerInfoError("signature-invalid", "the signature value does not verify");
    return;
  }
  if (cms.contentTypeAttribute === undefined) throw new SignerInfoError("signature-invalid", "no content-type signed attribute");
  if (cms.contentTypeAttribute !== cms.eContentTypeOid) throw new SignerInfoError("signature-invalid", "the content-type attribute does not match the content");
  if (!cms.messageDigest) throw new SignerInfoError("signature-invalid", "no message-digest signed attribute");
  // a signer that hashed the content itself passes that digest: a second pass over a large file is spared
  const digest = contentDigest && digestName === "sha256" ? Buffer.from(contentDigest) : digestOf(cms.digestAlgorithmOid, content);
  if (!digest.equals(Buffer.from(cms.messageDigest))) {
    throw new SignerInfoError("digest-mismatch", "message-digest does not match the signed bytes");
  }
  if (cms.certificateBindings.length === 0 && requireBinding) throw new SignerInfoError("signature-invalid", "no signing-certificate-v2 attribute");
  for (const binding of cms.certificateBindings.slice(0, 1)) {
    if (!digestOf(binding.hashAlgorithmOid, certificateDer).equals(Buffer.from(binding.hash))) {
      throw new SignerInfoError("signature-invalid", "signing-certificate-v2 names another certificate");
    }
  }
  if (!verifies(cms.signedAttributesDer)) throw new SignerInfoError("signature-invalid", "the signature value does not verify");
}
