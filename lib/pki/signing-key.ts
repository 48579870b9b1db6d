import { createPublicKey, KeyObject, sign } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";
import { processSlot } from "@/lib/process-wide/singleton";

/**
 * A private key that never leaves a PKCS#11 token, named by its label. Plain data, so it crosses to
 * pool workers like a CryptoKey does; signing with it goes to whoever holds the token session.
 */
export type TokenKeyReference = { token: "pkcs11"; label: string; publicKeySpkiDer: Uint8Array };

/** What certificates and key rows carry: an in-memory key (from a wrapped database row or fresh) or a token key. */
export type SigningKey = CryptoKey | TokenKeyReference;

/** The one signing operation every caller needs: SHA-256 over `data`; ECDSA values DER Ecdsa-Sig-Value, RSA PKCS#1 v1.5. */
export type KeySigner = {
  kind: "ec" | "rsa";
  publicKey: KeyObject;
  sign(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
};

export function isTokenKey(key: SigningKey): key is TokenKeyReference {
  return (key as TokenKeyReference).token === "pkcs11";
}

/** Signs with a token key by label (SHA-256, DER ECDSA); set by the thread that can reach the token. */
export type TokenSignFunction = (label: string, data: Uint8Array) => Promise<Uint8Array> | Uint8Array;

const tokenSigning = processSlot<TokenSignFunction>("firmaviva.token-sign");

/** The main thread registers the open token; a pool worker registers a call back to the main thread. */
export function registerTokenSigning(signWith: TokenSignFunction | undefined): void {
  tokenSigning.set(signWith);
}

/** Signs with the token key `label` through whatever this thread registered (the pool answers workers with it). */
export function signWithTokenKey(label: string, data: Uint8Array): Promise<Uint8Array> | Uint8Array {
  const signWith = tokenSigning.get();
  if (!signWith) throw new PkiError("UNSUPPORTED_KEY", `The key ${label} is in a PKCS#11 token, and no token is open (PKCS11_MODULE)`);
  return signWith(label, data);
}

const keySigners = new WeakMap<object, KeySigner>();

/** The signer for a key, in memory or in the token; callers never branch on where the key lives. */
export function keySignerFor(key: SigningKey): KeySigner {
  const cached = keySigners.get(key);
  if (cached) return cached;
  const signer = isTokenKey(key) ? tokenKeySigner(key) : inMemoryKeySigner(key);
  keySigners.set(key, signer);
  return signer;
}

function inMemoryKeySigner(privateKey: CryptoKey): KeySigner {
  const keyObject = KeyObject.from(privateKey);
  const type = keyObject.asymmetricKeyType;
  if (type !== "ec" && type !== "rsa") {
    throw new PkiError("UNSUPPORTED_KEY", `Only ECDSA and RSA PKCS#1 v1.5 keys can sign CMS (got ${type ?? "unknown"})`);
  }
  const options = type === "ec" ? { key: keyObject, dsaEncoding: "der" as const } : keyObject;
  return { kind: type, publicKey: createPublicKey(keyObject), sign: (data) => new Uint8Array(sign("sha256", data, options)) };
}

function tokenKeySigner(key: TokenKeyReference): KeySigner {
  return {
    kind: "ec", // the token generates ECDSA P-256 keys only (lib/pki/pkcs11-token.ts)
    publicKey: createPublicKey({ key: Buffer.from(key.publicKeySpkiDer), format: "der", type: "spki" }),
    sign: (data) => signWithTokenKey(key.label, data),
  };
}
