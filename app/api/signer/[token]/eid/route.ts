import { eidFailureMessages } from "@/lib/identity-assurance/eid/eid-failure";
import { eidLoginCookie, eidRedirectUri } from "@/lib/signers/eid-login-cookie";
import { startEidLogin } from "@/lib/signers/start-eid-login";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** Starts an eID login: `{url}` of the provider's authorization endpoint, and the cookie the callback needs. */
export const POST = withSignerLink({ session: "required" }, async (_request, { token, signerId, sessionId, services, client }) => {
  const { config, db } = services;
  const started = await startEidLogin({ token, signerId: signerId!, sessionId: sessionId!, client }, { db, secretKey: config.secretKey, redirectUri: eidRedirectUri(config.publicUrl) });
  if ("failed" in started) {
    const body = { success: false, reason: started.locked ? "locked" : `eid_${started.failed}`, message: eidFailureMessages[started.failed], attemptsLeft: started.attemptsLeft };
    return Response.json(body, { status: 502, headers: { "cache-control": "no-store" } });
  }
  const headers = new Headers({ "cache-control": "no-store", "set-cookie": eidLoginCookie(config.secretKey, started.loginId, config.publicUrl.startsWith("https:")) });
  return Response.json({ success: true, url: started.authorizationUrl }, { headers });
});
