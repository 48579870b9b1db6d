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

export const CALLBACK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * The secrets a callback is signed with at `now`: the current one, then the previous version's while
 * a departure's rotation leaves it in its 24 h window (receivers switch over without a lost event).
 */
export function callbackSigningSecrets(
  secretKey: Uint8Array,
  organization: { id: string; callbackSecretVersion: number; callbackSecretPreviousUntil: Date | null },
  now: number,
): string[] {
  const current = callbackSecretOf(secretKey, organization.id, organization.callbackSecretVersion);
  const overlapping = organization.callbackSecretVersion > 1 && organization.callbackSecretPreviousUntil !== null && organization.callbackSecretPreviousUntil.getTime() > now;
  return overlapping ? [current, callbackSecretOf(secretKey, organization.id, organization.callbackSecretVersion - 1)] : [current];
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
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed by the secret's bytes, one per secret,
 * space-separated (the standard's form for a rotation: a receiver accepts any one it knows).
 */
export function standardWebhookHeaders(secrets: readonly string[], input: { id: string; timestamp: number; body: string }): Record<string, string> {
  const signed = `${input.id}.${input.timestamp}.${input.body}`;
  const signatures = secrets.map((secret) => `v1,${crypto.createHmac("sha256", Buffer.from(secret, "hex")).update(signed).digest("base64")}`);
  return { "webhook-id": input.id, "webhook-timestamp": String(input.timestamp), "webhook-signature": signatures.join(" ") };
}

/** One event per process and outcome (a process concludes once), so retries and redeliveries share it. */
export function callbackEventOf(processId: string, status: string): { webhookId: string; event: string } {
  return { webhookId: `msg_${processId.replace(/-/g, "")}_${status}`, event: `process.${status}` };
}
