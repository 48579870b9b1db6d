import { importPrivateKey } from "@/lib/pki/import-private-key";

/** A certificate with its private key, both as stored (DER, PKCS#8) and ready to sign. */
export type IssuedCertificate = {
  certificateDer: Uint8Array;
  pkcs8: Uint8Array;
  privateKey: CryptoKey;
};

/** Rebuilds an IssuedCertificate from stored bytes (for example after decryptPrivateKey). */
export async function loadIssuedCertificate(certificateDer: Uint8Array, pkcs8: Uint8Array): Promise<IssuedCertificate> {
  return { certificateDer, pkcs8, privateKey: await importPrivateKey(pkcs8) };
}
