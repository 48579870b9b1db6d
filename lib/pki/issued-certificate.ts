import { importPrivateKey } from "@/lib/pki/import-private-key";
import type { SigningKey, TokenKeyReference } from "@/lib/pki/signing-key";

/** A certificate with its private key, both as stored (DER, PKCS#8) and ready to sign. */
export type IssuedCertificate = {
  certificateDer: Uint8Array;
  pkcs8: Uint8Array;
  privateKey: CryptoKey;
};

/** A certificate whose private key was generated in the PKCS#11 token and never leaves it. */
export type TokenCertificate = {
  certificateDer: Uint8Array;
  privateKey: TokenKeyReference;
};

/** Either kind, for what only needs to sign (an issuer, a TSA, a CRL). */
export type CertificateWithKey = { certificateDer: Uint8Array; privateKey: SigningKey };

/** Makes a new key pair in the token under a fresh label (lib/pki/pkcs11-token.ts). */
export type TokenKeyMaker = () => Promise<TokenKeyReference>;

/** Rebuilds an IssuedCertificate from stored bytes (for example after decryptPrivateKey). */
export async function loadIssuedCertificate(certificateDer: Uint8Array, pkcs8: Uint8Array): Promise<IssuedCertificate> {
  return { certificateDer, pkcs8, privateKey: await importPrivateKey(pkcs8) };
}
