import { expiresAtSeconds, tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

/** Selfie links in list and callback payloads live as long as document links (decision 17). */
export const SELFIE_LINK_SECONDS = 120;

export type SelfieOwner = { organizationId: string; signerId: string; facialId: string };

const payloadOf = (owner: SelfieOwner, expires: number) => `${owner.organizationId}.${owner.signerId}.${owner.facialId}.${expires}`;

/**
 * The wire value of `sign_data.facial.selfie`: a signed, expiring URL naming the signer and the
 * facial try, bound to the organization (which it does not show). The endpoint also asks for a
 * credential with biometrics:read of that organization, so a leaked link alone shows nothing.
 */
export function selfieLinkUrl(owner: SelfieOwner, settings: { secretKey: Uint8Array; publicUrl: string }, now = Date.now()): string {
  const expires = expiresAtSeconds(now, SELFIE_LINK_SECONDS);
  const signature = tokenMac(settings.secretKey, "selfie-links", payloadOf(owner, expires));
  const query = new URLSearchParams({ try: owner.facialId, expires: String(expires), signature });
  return `${settings.publicUrl}/api/selfies/${owner.signerId}?${query}`;
}

/** Constant-time check of a selfie link's signature; the expiry is checked by the caller. */
export function selfieLinkValid(owner: SelfieOwner, link: { expires: number; signature: string }, secretKey: Uint8Array): boolean {
  return tokenMacMatches(secretKey, "selfie-links", payloadOf(owner, link.expires), link.signature);
}
