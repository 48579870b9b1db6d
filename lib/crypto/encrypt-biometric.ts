import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";

// v1 || iv(12) || tag(16) || ciphertext; the version byte and the owner are authenticated (AAD)
const FORMAT = 0x01;
const IV = 12;
const TAG = 16;

const aadOf = (owner: string) => Buffer.concat([Uint8Array.of(FORMAT), Buffer.from(`firmaviva:biometric\0${owner}`, "utf8")]);

/**
 * Selfies, ID-document photos and registry portraits are stored encrypted: AES-256-GCM under a key
 * derived from SECRET_KEY for this purpose only. `owner` (organization id) binds a blob to its
 * organization, so a blob copied under another organization's key space does not decrypt.
 */
export function encryptBiometric(plaintext: Uint8Array, secretKey: Uint8Array, owner: string): Uint8Array {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey, "biometrics"), iv, { authTagLength: TAG });
  cipher.setAAD(aadOf(owner));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([Uint8Array.of(FORMAT), iv, cipher.getAuthTag(), ciphertext]));
}

export function decryptBiometric(blob: Uint8Array, secretKey: Uint8Array, owner: string): Uint8Array {
  if (blob.length < 1 + IV + TAG || blob[0] !== FORMAT) throw new AppError("INTERNAL", "formato de imagen cifrada desconocido");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secretKey, "biometrics"), blob.subarray(1, 1 + IV), { authTagLength: TAG });
  decipher.setAAD(aadOf(owner));
  decipher.setAuthTag(blob.subarray(1 + IV, 1 + IV + TAG));
  try {
    return new Uint8Array(Buffer.concat([decipher.update(blob.subarray(1 + IV + TAG)), decipher.final()]));
  } catch {
    throw new AppError("INTERNAL", "no se pudo descifrar la imagen");
  }
}
