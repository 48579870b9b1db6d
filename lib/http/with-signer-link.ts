import { statusOf, errorResponse } from "@/lib/http/error-responses";
import { withPublic } from "@/lib/http/with-api-auth";
import { crossSiteRefusal } from "@/lib/http/check-same-origin";
import { FaceError } from "@/lib/faces/face-error";
import { isAppError } from "@/lib/errors";
import type { Services } from "@/lib/runtime/services";
import { SIGNER_SESSION_COOKIE, issueSignerSession, newSignerSessionId, readSignerSession, signerSessionCookies } from "@/lib/signers/signer-session";
import { SignerFlowError } from "@/lib/signers/signer-flow-error";
import { describeSignerClient, type SignerClient } from "@/lib/signers/describe-signer-client";
import { currentRequestId } from "@/lib/runtime/request-context";

type Context = {
  token: string;
  /** The signer named by a valid session cookie for this link. */
  signerId: string | null;
  /** This browser's signer session: identity proofs are bound to it (lib/identity-assurance/session-proof.ts). */
  sessionId: string | null;
  services: Services;
  params: Record<string, string | string[]>;
  /** Set-Cookie values that (re)start the signer session for this link (renewing keeps the session id). */
  sessionCookies: (signerId: string) => string[];
  /** The session id those cookies carry for this signer: the current one, or one fresh id per request. */
  sessionIdFor: (signerId: string) => string;
  /** Address and user agent of the request, for the signer's evidence. */
  client: SignerClient;
};
type Handler = (request: Request, context: Context) => Promise<Response>;

/**
 * Route handlers the signer pages call (/api/signer/<link token>/...): the link token from the
 * path, the signer-session cookie (required unless `session: "optional"`), and JSON errors that also
 * carry the signer-facing `reason` (and `attemptsLeft`) so the page can say what to do. A
 * state-changing request from another site's page is refused (`cross_site`) before the cookie is
 * read, as on staff routes: SameSite=Lax keeps the session cookie off cross-site POSTs, but a
 * sibling subdomain's page is same-site and gets it, and routes with an optional session need none.
 */
export function withSignerLink(options: { session: "required" | "optional" }, handler: Handler) {
  return withPublic("json", async (request, { services, params }) => {
    const token = String(params.token ?? "");
    try {
      if (crossSiteRefusal(request, services.config.PUBLIC_URL)) throw new SignerFlowError("cross_site");
      const session = readSignerSession(services.config.secretKey, token, readCookie(request, SIGNER_SESSION_COOKIE));
      if (options.session === "required" && !session) {
        return Response.json({ success: false, reason: "session_expired", message: "Su sesión de firma venció; vuelva a abrir el enlace.", requestId: currentRequestId() }, { status: 401 });
      }
      const secure = services.config.publicUrl.startsWith("https:");
      const fresh = newSignerSessionId();
      const sessionIdFor = (signerId: string) => (session?.signerId === signerId ? session.sessionId : fresh);
      const sessionCookies = (signerId: string) => signerSessionCookies(issueSignerSession(services.config.secretKey, token, signerId, sessionIdFor(signerId)), token, secure);
      const client = describeSignerClient(request, services.config.trustedProxies);
      return await handler(request, { token, signerId: session?.signerId ?? null, sessionId: session?.sessionId ?? null, services, params, sessionCookies, sessionIdFor, client });
    } catch (error) {
      if (error instanceof SignerFlowError || error instanceof FaceError) {
        const reason = error instanceof SignerFlowError ? error.reason : error.reason.toLowerCase();
        const attemptsLeft = error instanceof SignerFlowError ? error.attemptsLeft : undefined;
        const headers: Record<string, string> = { "cache-control": "no-store" };
        if (error.code === "RATE_LIMITED") headers["retry-after"] = String((error instanceof SignerFlowError ? error.retryAfterSeconds : undefined) ?? 60);
        return Response.json({ success: false, reason, message: error.message, attemptsLeft, requestId: currentRequestId() }, { status: statusOf(error.code, "json"), headers });
      }
      if (isAppError(error)) return errorResponse(error, "json");
      throw error;
    }
  });
}

/** JSON answer that also (re)starts the signer session. */
export function jsonWithSession(body: unknown, cookies: string[], status = 200): Response {
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return Response.json(body, { status, headers });
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}
