import { tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

/** Names the eID login this browser started; only the callback path receives it. */
export const EID_LOGIN_COOKIE = "fv_eid";
export const EID_CALLBACK_PATH = "/ui/signature_processes/eid/callback";
export const EID_LOGIN_SECONDS = 10 * 60;

/** The provider's redirect comes back to one fixed URL (providers register exact redirect URIs), not to the link's page. */
export const eidRedirectUri = (publicUrl: string) => `${publicUrl}${EID_CALLBACK_PATH}`;

export function eidLoginCookie(secretKey: Uint8Array, loginId: string, secure: boolean): string {
  return `${EID_LOGIN_COOKIE}=${loginId}.${tokenMac(secretKey, "eid-login-cookie", loginId)}; Path=${EID_CALLBACK_PATH}; Max-Age=${EID_LOGIN_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export const clearEidLoginCookie = (secure: boolean) => `${EID_LOGIN_COOKIE}=; Path=${EID_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

/** The login id, or null for a missing or tampered cookie. */
export function readEidLoginCookie(secretKey: Uint8Array, value: string | undefined): string | null {
  const [loginId, signature] = (value ?? "").split(".");
  if (!loginId || !signature || !/^[0-9a-f-]{36}$/.test(loginId)) return null;
  return tokenMacMatches(secretKey, "eid-login-cookie", loginId, signature) ? loginId : null;
}
