import { createCipheriv, createDecipheriv, randomBytes, scrypt } from "node:crypto";
import { PkiError } from "@/lib/pki/errors";

// Blob layouts start with a version byte so parameters (cipher, KDF cost) can change later.
const secretKeyFormat = 0x01; // v1 || iv(12) || tag(16) || ciphertext
const pinFormat = 0x01; // v1 || salt(16) || iv(12) || tag(16) || ciphertext
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

/** Encrypts with a key derived from the signer's PIN (scrypt), so the server alone cannot unlock it. */
export async function encryptWithPin(pkcs8: Uint8Array, pin: string, aad?: string): Promise<Uint8Array> {
  if (!pin) throw new PkiError("INVALID_INPUT", "The PIN must not be empty");
  const salt = randomBytes(saltLength);
  const key = await derivePinKey(pin, salt);
  const { iv, tag, ciphertext } = seal(key, pkcs8, additionalData(pinFormat, "pin", aad));
  return new Uint8Array(Buffer.concat([Uint8Array.of(pinFormat), salt, iv, tag, ciphertext]));
}

export async function decryptWithPin(blob: Uint8Array, pin: string, aad?: string): Promise<Uint8Array> {
  const header = 1 + saltLength + ivLength + tagLength;
  if (blob.length < header + 1 || blob[0] !== pinFormat) {
    throw new PkiError("INVALID_ENCRYPTED_KEY", "Unknown PIN-encrypted key format");
  }
  const salt = blob.subarray(1, 1 + saltLength);
  const iv = blob.subarray(1 + saltLength, 1 + saltLength + ivLength);
  const tag = blob.subarray(1 + saltLength + ivLength, header);
  const key = await derivePinKey(pin, salt);
  const plaintext = open(key, iv, tag, blob.subarray(header), additionalData(pinFormat, "pin", aad));
  if (!plaintext) throw new PkiError("WRONG_PIN", "Wrong PIN");
  return plaintext;
}
