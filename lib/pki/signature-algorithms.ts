import { oids } from "@/lib/pki/object-identifiers";

/** Digest OIDs a signature may use, by node:crypto name (SHA-1 only to read old files, never to sign). */
export const digestNames: Record<string, string> = { [oids.sha1]: "sha1", [oids.sha256]: "sha256", [oids.sha384]: "sha384", [oids.sha512]: "sha512" };

// signature OIDs that fix their own hash; rsaEncryption and id-ecPublicKey take the SignerInfo digest
const signatureHashes: Record<string, string> = {
  "1.2.840.10045.4.3.2": "sha256",
  "1.2.840.10045.4.3.3": "sha384",
  "1.2.840.10045.4.3.4": "sha512",
  "1.2.840.113549.1.1.5": "sha1",
  "1.2.840.113549.1.1.11": "sha256",
  "1.2.840.113549.1.1.12": "sha384",
  "1.2.840.113549.1.1.13": "sha512",
};
const keyTypeSignatures = new Set<string>([oids.rsaEncryption, oids.ecPublicKey]);

/** The node:crypto hash a signature algorithm signs with, or undefined when we do not support it. */
export function hashOfSignature(signatureOid: string, digestOid?: string): string | undefined {
  return signatureHashes[signatureOid] ?? (keyTypeSignatures.has(signatureOid) && digestOid ? digestNames[digestOid] : undefined);
}

// BSI TR-03111 ecdsa-plain-SHA*: the signature value is r || s, not a DER SEQUENCE
const plainEcdsaHashes: Record<string, string> = {
  "0.4.0.127.0.7.1.1.4.1.1": "sha1",
  "0.4.0.127.0.7.1.1.4.1.2": "sha224",
  "0.4.0.127.0.7.1.1.4.1.3": "sha256",
  "0.4.0.127.0.7.1.1.4.1.4": "sha384",
  "0.4.0.127.0.7.1.1.4.1.5": "sha512",
};

/** True for the BSI TR-03111 plain-ECDSA algorithms (signature value r || s). */
export function isPlainEcdsa(signatureOid: string): boolean {
  return signatureOid in plainEcdsaHashes;
}

/**
 * The hash a SignerInfo's digestAlgorithm names. Some signers put the signature algorithm there
 * (sha256WithRSAEncryption instead of sha256); its hash is meant, so it is read as that.
 */
export function digestNameOf(digestOid: string): string | undefined {
  return digestNames[digestOid] ?? signatureHashes[digestOid] ?? plainEcdsaHashes[digestOid] ?? (digestOid === "2.16.840.1.101.3.4.2.4" ? "sha224" : undefined);
}

/** Like hashOfSignature, also for plain ECDSA and a signature OID in the digest field. */
export function hashOfSignerInfo(signatureOid: string, digestOid: string): string | undefined {
  return signatureHashes[signatureOid] ?? plainEcdsaHashes[signatureOid] ?? (keyTypeSignatures.has(signatureOid) ? digestNameOf(digestOid) : undefined);
}

/** Why an algorithm is weak today (SHA-1 collisions), or undefined. */
export function weaknessOf(hashName: string): string | undefined {
  return hashName === "sha1" ? "SHA-1" : undefined;
}
