import crypto from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";

/**
 * The organization's callback secret: derived from SECRET_KEY, the organization id and a version
 * (organizations.callback_secret_version), so nothing secret is stored and bumping the version
 * rotates it. The dashboard shows it to admins (credentials:manage).
 */
export function callbackSecretOf(secretKey: Uint8Array, organizationId: string, version: number): string {
  return deriveKey(secretKey, `callback-secret:${organizationId}:v${version}`).toString("hex");
}

/** `sha256=<hex HMAC-SHA256 of the exact body>` (decision 16). */
export function callbackSignature(secret: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
}
