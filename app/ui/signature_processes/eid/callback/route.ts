import { withPublic } from "@/lib/http/with-api-auth";
import { describeSignerClient } from "@/lib/signers/describe-signer-client";
import { EID_LOGIN_COOKIE, clearEidLoginCookie, eidRedirectUri, readEidLoginCookie } from "@/lib/signers/eid-login-cookie";
import { finishEidLogin } from "@/lib/signers/finish-eid-login";

export const dynamic = "force-dynamic";

/** The OIDC provider sends the signer back here; they go on to their link's page, which says how it ended. */
export const GET = withPublic("json", async (request, { services }) => {
  const { config, db } = services;
  const cookie = request.headers.get("cookie")?.split(";").map((part) => part.trim()).find((part) => part.startsWith(`${EID_LOGIN_COOKIE}=`));
  const loginId = readEidLoginCookie(config.secretKey, cookie?.slice(EID_LOGIN_COOKIE.length + 1));
  // the redirect_uri openid-client compares is ours, not whatever host the proxy forwarded
  const callbackUrl = new URL(eidRedirectUri(config.publicUrl));
  callbackUrl.search = new URL(request.url).search;
  const finished = await finishEidLogin({ loginId, callbackUrl, client: describeSignerClient(request, config.trustedProxies) }, { db, secretKey: config.secretKey });
  const headers = new Headers({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
  // a callback with another state (a forced navigation) leaves the login, and its cookie, to the provider's real answer
  if (!("refused" in finished) || finished.refused === "no_login") headers.set("set-cookie", clearEidLoginCookie(config.publicUrl.startsWith("https:")));
  if (!finished.token) {
    headers.set("content-type", "text/plain; charset=utf-8");
    return new Response("El inicio de sesión con el proveedor de identidad venció o no se inició en este navegador. Vuelva a abrir su enlace de firma.", { status: 400, headers });
  }
  headers.set("location", `${config.publicUrl}/ui/signature_processes/${finished.token}?eid=${finished.outcome}`);
  return new Response(null, { status: 303, headers });
});
