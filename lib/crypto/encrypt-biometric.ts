import { AppError } from "@/lib/errors";
import { openBox, sealBox, SEALED_BOX_FORMAT, type SealedBoxBinding } from "./sealed-box";

// the version byte and the owner are authenticated (AAD), as blobs stored before this module was shared
const bindingOf = (secretKey: Uint8Array, owner: string): SealedBoxBinding => ({
  secretKey,
  purpose: "biometrics",
  aad: Buffer.concat([Uint8Array.of(SEALED_BOX_FORMAT), Buffer.from(`firmaviva:biometric\0${owner}`, "utf8")]),
});

/**
 * Selfies, ID-document photos and registry portraits are stored encrypted: AES-256-GCM under a key
 * derived from SECRET_KEY for this purpose only. `owner` (organization id) binds a blob to its
 * organization, so a blob copied under another organization's key space does not decrypt.
 */
export function encryptBiometric(plaintext: Uint8Array, secretKey: Uint8Array, owner: string): Uint8Array {
  return sealBox(plaintext, bindingOf(secretKey, owner));
}

export function decryptBiometric(blob: Uint8Array, secretKey: Uint8Array, owner: string): Uint8Array {
  const opened = openBox(blob, bindingOf(secretKey, owner));
  if (opened === "unknown-format") throw new AppError("INTERNAL", "formato de imagen cifrada desconocido");
  if (!opened) throw new AppError("INTERNAL", "no se pudo descifrar la imagen");
  return opened;
}
