import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { ZIdentifySigner } from "@/lib/signers/schemas";
import { startSignerSession } from "@/lib/signers/start-signer-session";
import { jsonWithSession, withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** The signer types their ID number (identity links) or is named by the link; answers with the session cookie. */
export const POST = withSignerLink({ session: "optional" }, async (request, { token, services, sessionCookies, sessionIdFor, client }) => {
  const input = await parseJsonBody(request, ZIdentifySigner);
  const { signerId } = await startSignerSession({ token, nat: input.nat, docId: input.docId, client, sessionFor: sessionIdFor }, services.db);
  return jsonWithSession({ success: true }, sessionCookies(signerId));
});
