import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";
import { AppError } from "@/lib/errors";

// v1 || iv(12) || tag(16) || ciphertext; the organization id is authenticated (AAD)
const FORMAT = 0x01;
const IV = 12;
const TAG = 16;

const aadOf = (organizationId: string) => Buffer.from(`firmaviva:oidc-client-secret\0${organizationId}`, "utf8");

/** The OIDC client secret at rest: AES-256-GCM under a SECRET_KEY-derived key of its own, bound to the organization. */
export function sealClientSecret(secret: string, secretKey: Uint8Array, organizationId: string): Uint8Array {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey, "oidc-client-secret"), iv, { authTagLength: TAG });
  cipher.setAAD(aadOf(organizationId));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return new Uint8Array(Buffer.concat([Uint8Array.of(FORMAT), iv, cipher.getAuthTag(), ciphertext]));
}

export function openClientSecret(blob: Uint8Array, secretKey: Uint8Array, organizationId: string): string {
  if (blob.length < 1 + IV + TAG || blob[0] !== FORMAT) throw new AppError("INTERNAL", "formato de secreto cifrado desconocido");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secretKey, "oidc-client-secret"), blob.subarray(1, 1 + IV), { authTagLength: TAG });
  decipher.setAAD(aadOf(organizationId));
  decipher.setAuthTag(blob.subarray(1 + IV, 1 + IV + TAG));
  try {
    return Buffer.concat([decipher.update(blob.subarray(1 + IV + TAG)), decipher.final()]).toString("utf8");
  } catch {
    throw new AppError("INTERNAL", "no se pudo descifrar el secreto del proveedor de identidad");
  }
}
