import { webcrypto } from "node:crypto";
import { convertEcdsaDerToRaw } from "@/lib/pki/ecdsa-signature-format";
import { isTokenKey, keySignerFor, type SigningKey } from "@/lib/pki/signing-key";

/** ECDSA P-256, the only kind of key the token generates (lib/pki/pkcs11-token.ts). */
const tokenKeyAlgorithm = { name: "ECDSA", namedCurve: "P-256" } as const;

/**
 * What @peculiar/x509's generators need to sign a certificate or CRL with this key. An in-memory
 * key goes through as before; a token key gets a WebCrypto whose `sign` asks the token, because
 * x509 signs through `crypto.subtle.sign` (raw r||s for ECDSA, which it re-encodes itself).
 */
export function x509SigningWith(key: SigningKey): { signingKey: CryptoKey; crypto?: Crypto } {
  if (!isTokenKey(key)) return { signingKey: key };
  const signer = keySignerFor(key);
  const subtle = Object.create(webcrypto.subtle) as SubtleCrypto;
  subtle.sign = async (_algorithm, _key, data) => {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return convertEcdsaDerToRaw(await signer.sign(bytes), 32).buffer as ArrayBuffer;
  };
  const crypto = { subtle, getRandomValues: webcrypto.getRandomValues.bind(webcrypto), randomUUID: webcrypto.randomUUID.bind(webcrypto) };
  const signingKey = { type: "private", extractable: false, algorithm: tokenKeyAlgorithm, usages: ["sign"] } as unknown as CryptoKey;
  return { signingKey, crypto: crypto as unknown as Crypto };
}
