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

/** The same secret in Standard Webhooks form (`whsec_` + base64 of its 32 bytes), for their libraries. */
export function standardWebhookSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, "hex").toString("base64")}`;
}

/**
 * Standard Webhooks headers: `webhook-id` names the event (stable across retries, so receivers
 * de-duplicate on it), `webhook-timestamp` is this attempt's time, and `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed by the secret's bytes.
 */
export function standardWebhookHeaders(secret: string, input: { id: string; timestamp: number; body: string }): Record<string, string> {
  const signed = `${input.id}.${input.timestamp}.${input.body}`;
  const signature = crypto.createHmac("sha256", Buffer.from(secret, "hex")).update(signed).digest("base64");
  return { "webhook-id": input.id, "webhook-timestamp": String(input.timestamp), "webhook-signature": `v1,${signature}` };
}

/** One event per process and outcome (a process concludes once), so retries and redeliveries share it. */
export function callbackEventOf(processId: string, status: string): { webhookId: string; event: string } {
  return { webhookId: `msg_${processId.replace(/-/g, "")}_${status}`, event: `process.${status}` };
}
