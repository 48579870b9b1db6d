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
  const sign = async (_algorithm: unknown, _key: unknown, data: BufferSource) => {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return convertEcdsaDerToRaw(await signer.sign(bytes), 32).buffer as ArrayBuffer;
  };
  // everything else (exporting the subject's public key, digests) is Node's own, bound to it
  const subtle = new Proxy(webcrypto.subtle, {
    get(target, name) {
      if (name === "sign") return sign;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const crypto = { subtle, getRandomValues: webcrypto.getRandomValues.bind(webcrypto), randomUUID: webcrypto.randomUUID.bind(webcrypto) };
  const signingKey = { type: "private", extractable: false, algorithm: tokenKeyAlgorithm, usages: ["sign"] } as unknown as CryptoKey;
  return { signingKey, crypto: crypto as unknown as Crypto };
}
