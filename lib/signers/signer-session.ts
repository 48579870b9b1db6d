import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { expiresAtSeconds, tokenExpired, tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

/**
 * The identified signer of one signing link, kept in an HttpOnly cookie for a short while.
 * `sessionId` names this browser's session: identity proofs made in it are valid in it only.
 */
export type SignerSession = { signerId: string; expiresAt: number; sessionId: string };

/** A fresh session id, for a browser that identifies without a live session. */
export const newSignerSessionId = () => randomBytes(16).toString("base64url");

export const SIGNER_SESSION_COOKIE = "fv_signer";
export const SIGNER_SESSION_SECONDS = 30 * 60;

/** The cookie is scoped to the link's page and to the link's API routes (cookie paths are prefixes). */
export const signerSessionPaths = (token: string) => [`/ui/signature_processes/${token}`, `/api/signer/${token}`];

// the cookie names the link it was issued for, so it cannot be replayed on another link
const linkTag = (token: string) => sha256Hex(token).slice(0, 16);

export function issueSignerSession(secretKey: Uint8Array, token: string, signerId: string, sessionId: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, l: linkTag(token), s: signerId, e: expiresAtSeconds(now, SIGNER_SESSION_SECONDS), i: sessionId })).toString("base64url");
  return `${payload}.${tokenMac(secretKey, "signer-session", payload)}`;
}

/** Null for a missing, tampered, expired or other-link cookie. */
export function readSignerSession(secretKey: Uint8Array, token: string, value: string | undefined, now = Date.now()): SignerSession | null {
  if (!value) return null;
  const [payload, signature] = value.split(".");
  if (!payload || !signature) return null;
  if (!tokenMacMatches(secretKey, "signer-session", payload, signature)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { v: number; l: string; s: string; e: number; i?: unknown };
    if (data.v !== 1 || data.l !== linkTag(token) || typeof data.s !== "string" || tokenExpired(data.e, now)) return null;
    // a cookie issued before session ids is its own session: named by its payload, which no other cookie shares
    const sessionId = typeof data.i === "string" && data.i.length > 0 ? data.i : `c-${sha256Hex(payload).slice(0, 22)}`;
    return { signerId: data.s, expiresAt: data.e * 1000, sessionId };
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
