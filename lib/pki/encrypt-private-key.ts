import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";

// Blob layouts start with a version byte so parameters (cipher, KDF cost) can change later.
const secretKeyFormat = 0x01; // v1 || iv(12) || tag(16) || ciphertext
const pinFormat = 0x01; // v1 || salt(16) || iv(12) || tag(16) || ciphertext  (legacy: PIN alone)
const pepperedPinFormat = 0x02; // v2, same layout; key = HMAC(server pepper, scrypt(PIN))
const ivLength = 12;
const tagLength = 16;
const saltLength = 16;
// N=2^15, r=8 needs 32 MiB; Node's default maxmem is exactly 32 MiB, which scrypt rejects.
const scryptParams = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function seal(key: Uint8Array, plaintext: Uint8Array, aad: Buffer): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagLength });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** Returns null when authentication fails (wrong key, wrong AAD or tampered blob). */
function open(key: Uint8Array, iv: Uint8Array, tag: Uint8Array, ciphertext: Uint8Array, aad: Buffer): Uint8Array | null {
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: tagLength });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  try {
    return new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
  } catch {
    return null;
  }
}

// The version byte is authenticated too, so a blob cannot be replayed under another format.
function additionalData(format: number, purpose: string, aad: string | undefined): Buffer {
  return Buffer.concat([Uint8Array.of(format), Buffer.from(`firmaviva:${purpose}\0${aad ?? ""}`, "utf8")]);
}

function checkSecretKey(secretKey: Uint8Array): void {
  if (secretKey.length !== 32) throw new PkiError("INVALID_INPUT", "The secret key must be 32 bytes");
}

/** AES-256-GCM under a server secret; aad binds the blob to its owner (e.g. a credential id). */
export function encryptPrivateKey(pkcs8: Uint8Array, secretKey: Uint8Array, aad?: string): Uint8Array {
  checkSecretKey(secretKey);
  const { iv, tag, ciphertext } = seal(secretKey, pkcs8, additionalData(secretKeyFormat, "private-key", aad));
  return new Uint8Array(Buffer.concat([Uint8Array.of(secretKeyFormat), iv, tag, ciphertext]));
}

export function decryptPrivateKey(blob: Uint8Array, secretKey: Uint8Array, aad?: string): Uint8Array {
  checkSecretKey(secretKey);
  if (blob.length < 1 + ivLength + tagLength + 1 || blob[0] !== secretKeyFormat) {
    throw new PkiError("INVALID_ENCRYPTED_KEY", "Unknown encrypted key format");
  }
  const iv = blob.subarray(1, 1 + ivLength);
  const tag = blob.subarray(1 + ivLength, 1 + ivLength + tagLength);
  const plaintext = open(secretKey, iv, tag, blob.subarray(1 + ivLength + tagLength), additionalData(secretKeyFormat, "private-key", aad));
  if (!plaintext) throw new PkiError("DECRYPTION_FAILED", "The private key could not be decrypted");
  return plaintext;
}

function derivePinKey(pin: string, salt: Uint8Array): Promise<Buffer> {
  // NFC so the same PIN typed on different keyboards derives the same key
  const password = Buffer.from(pin.normalize("NFC"), "utf8");
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, scryptParams, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * Encrypts with a key derived from the signer's PIN (scrypt) *and* a server pepper (from
 * SECRET_KEY): the server alone cannot unlock it, and neither can a copy of the database with a
 * guessed 4-digit PIN. Without a pepper it writes the legacy PIN-only format (tests of old data).
 */
export async function encryptWithPin(pkcs8: Uint8Array, pin: string, aad?: string, pepper?: Uint8Array): Promise<Uint8Array> {
  if (!pin) throw new PkiError("INVALID_INPUT", "The PIN must not be empty");
  const format = pepper ? pepperedPinFormat : pinFormat;
  const salt = randomBytes(saltLength);
  const key = await wrappingKey(pin, salt, pepper);
  const { iv, tag, ciphertext } = seal(key, pkcs8, additionalData(format, "pin", aad));
  return new Uint8Array(Buffer.concat([Uint8Array.of(format), salt, iv, tag, ciphertext]));
}

/** Opens both formats; the peppered one needs the pepper. `legacy` tells the caller to re-wrap. */
export async function decryptWithPinAndPepper(blob: Uint8Array, pin: string, aad: string | undefined, pepper: Uint8Array | undefined): Promise<{ pkcs8: Uint8Array; legacy: boolean }> {
  const header = 1 + saltLength + ivLength + tagLength;
  const format = blob[0];
  if (blob.length < header + 1 || (format !== pinFormat && format !== pepperedPinFormat)) {
    throw new PkiError("INVALID_ENCRYPTED_KEY", "Unknown PIN-encrypted key format");
  }
  if (format === pepperedPinFormat && !pepper) throw new PkiError("DECRYPTION_FAILED", "This key also needs the server's secret");
  const salt = blob.subarray(1, 1 + saltLength);
  const iv = blob.subarray(1 + saltLength, 1 + saltLength + ivLength);
  const tag = blob.subarray(1 + saltLength + ivLength, header);
  const key = await wrappingKey(pin, salt, format === pepperedPinFormat ? pepper : undefined);
  const plaintext = open(key, iv, tag, blob.subarray(header), additionalData(format, "pin", aad));
  if (!plaintext) throw new PkiError("WRONG_PIN", "Wrong PIN");
  return { pkcs8: plaintext, legacy: format === pinFormat };
}

export async function decryptWithPin(blob: Uint8Array, pin: string, aad?: string, pepper?: Uint8Array): Promise<Uint8Array> {
  return (await decryptWithPinAndPepper(blob, pin, aad, pepper)).pkcs8;
}

async function wrappingKey(pin: string, salt: Uint8Array, pepper: Uint8Array | undefined): Promise<Buffer> {
  const stretched = await derivePinKey(pin, salt);
  return pepper ? createHmac("sha256", pepper).update(stretched).digest() : stretched;
}
