import { sha256Hex } from "@/lib/crypto/derive-key";
import { expiresAtSeconds, tokenExpired, tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

/** The identified signer of one signing link, kept in an HttpOnly cookie for a short while. */
export type SignerSession = { signerId: string; expiresAt: number };

export const SIGNER_SESSION_COOKIE = "fv_signer";
export const SIGNER_SESSION_SECONDS = 30 * 60;

/** The cookie is scoped to the link's page and to the link's API routes (cookie paths are prefixes). */
export const signerSessionPaths = (token: string) => [`/ui/signature_processes/${token}`, `/api/signer/${token}`];

// the cookie names the link it was issued for, so it cannot be replayed on another link
const linkTag = (token: string) => sha256Hex(token).slice(0, 16);

export function issueSignerSession(secretKey: Uint8Array, token: string, signerId: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, l: linkTag(token), s: signerId, e: expiresAtSeconds(now, SIGNER_SESSION_SECONDS) })).toString("base64url");
  return `${payload}.${tokenMac(secretKey, "signer-session", payload)}`;
}

/** Null for a missing, tampered, expired or other-link cookie. */
export function readSignerSession(secretKey: Uint8Array, token: string, value: string | undefined, now = Date.now()): SignerSession | null {
  if (!value) return null;
  const [payload, signature] = value.split(".");
  if (!payload || !signature) return null;
  if (!tokenMacMatches(secretKey, "signer-session", payload, signature)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { v: number; l: string; s: string; e: number };
    if (data.v !== 1 || data.l !== linkTag(token) || typeof data.s !== "string" || tokenExpired(data.e, now)) return null;
    return { signerId: data.s, expiresAt: data.e * 1000 };
  } catch {
    return null;
  }
}

/** Set-Cookie header values for both paths of the link (HttpOnly, SameSite=Lax, Secure on https). */
export function signerSessionCookies(value: string, token: string, secure: boolean, maxAge = SIGNER_SESSION_SECONDS): string[] {
  return signerSessionPaths(token).map(
    (path) => `${SIGNER_SESSION_COOKIE}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
}
