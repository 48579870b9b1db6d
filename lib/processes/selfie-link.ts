import crypto from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";

/** Selfie links in list and callback payloads live as long as document links (decision 17). */
export const SELFIE_LINK_SECONDS = 120;

function signatureOf(secretKey: Uint8Array, organizationId: string, signerId: string, facialId: string, expires: number): string {
  return crypto
    .createHmac("sha256", deriveKey(secretKey, "selfie-links"))
    .update(`${organizationId}.${signerId}.${facialId}.${expires}`)
    .digest("base64url");
}

export type SelfieOwner = { organizationId: string; signerId: string; facialId: string };

/**
 * The wire value of `sign_data.facial.selfie`: a signed, expiring URL naming the signer and the
 * facial try, bound to the organization (which it does not show). The endpoint also asks for a
 * credential with biometrics:read of that organization, so a leaked link alone shows nothing.
 */
export function selfieLinkUrl(owner: SelfieOwner, settings: { secretKey: Uint8Array; publicUrl: string }, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + SELFIE_LINK_SECONDS;
  const signature = signatureOf(settings.secretKey, owner.organizationId, owner.signerId, owner.facialId, expires);
  const query = new URLSearchParams({ try: owner.facialId, expires: String(expires), signature });
  return `${settings.publicUrl}/api/selfies/${owner.signerId}?${query}`;
}

/** Constant-time check of a selfie link's signature; the expiry is checked by the caller. */
export function selfieLinkValid(owner: SelfieOwner, link: { expires: number; signature: string }, secretKey: Uint8Array): boolean {
  const expected = Buffer.from(signatureOf(secretKey, owner.organizationId, owner.signerId, owner.facialId, link.expires));
  const given = Buffer.from(link.signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
