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
