import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "./derive-key";

// v1 || iv(12) || tag(16) || ciphertext, AES-256-GCM: the one format for secrets we keep at rest
const FORMAT = 0x01;
const IV = 12;
const TAG = 16;

/** Which key (derived from SECRET_KEY for this purpose only) and which authenticated data bind a box. */
export type SealedBoxBinding = { secretKey: Uint8Array; purpose: string; aad: Uint8Array };

export function sealBox(plaintext: Uint8Array, { secretKey, purpose, aad }: SealedBoxBinding): Uint8Array {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey, purpose), iv, { authTagLength: TAG });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([Uint8Array.of(FORMAT), iv, cipher.getAuthTag(), ciphertext]));
}

/** The plaintext; "unknown-format" when the box is not ours, null when it does not open under this binding. */
export function openBox(box: Uint8Array, { secretKey, purpose, aad }: SealedBoxBinding): Uint8Array | "unknown-format" | null {
  if (box.length < 1 + IV + TAG || box[0] !== FORMAT) return "unknown-format";
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secretKey, purpose), box.subarray(1, 1 + IV), { authTagLength: TAG });
  decipher.setAAD(aad);
  decipher.setAuthTag(box.subarray(1 + IV, 1 + IV + TAG));
  try {
    return new Uint8Array(Buffer.concat([decipher.update(box.subarray(1 + IV + TAG)), decipher.final()]));
  } catch {
    return null;
  }
}

/** The format byte, for a binding whose authenticated data includes it (biometric blobs do). */
export const SEALED_BOX_FORMAT = FORMAT;
