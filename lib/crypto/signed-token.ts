import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";

/**
 * Every kind of HMAC-signed token the server hands out. Each purpose is also the HKDF label of its
 * key (deriveKey), so a MAC made for one purpose never verifies for another, and the labels are the
 * ones the tokens already issued (links in e-mails already sent) were signed with.
 */
export type TokenPurpose = "signing-links" | "document-links" | "selfie-links" | "signer-session" | "facial-ticket" | "eid-login-cookie";

/** The base64url HMAC-SHA256 of `payload` under the purpose's own key. */
export function tokenMac(secretKey: Uint8Array, purpose: TokenPurpose, payload: string): string {
  return createHmac("sha256", deriveKey(secretKey, purpose)).update(payload).digest("base64url");
}

/** Constant-time check that `presented` is the MAC of `payload` for this purpose. */
export function tokenMacMatches(secretKey: Uint8Array, purpose: TokenPurpose, payload: string, presented: string): boolean {
  const expected = Buffer.from(tokenMac(secretKey, purpose, payload));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The expiry, in Unix seconds as the tokens carry it, of a token issued at `now` (ms) for `lifetimeSeconds`. */
export function expiresAtSeconds(now: number, lifetimeSeconds: number): number {
  return Math.floor(now / 1000) + lifetimeSeconds;
}

/** Whether a token expiring at `expiresAt` (Unix seconds) is past at `now` (ms); a non-number has expired. */
export function tokenExpired(expiresAt: number, now = Date.now()): boolean {
  return !(expiresAt * 1000 > now);
}
