import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { ZPersonNames } from "@/lib/identity-registry/schemas";
import { confirmSignerNames } from "@/lib/signers/confirm-signer-names";
import { jsonWithSession, withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** The signer confirms (or corrects) their given and family names: `{given_name, family_name}`. */
export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, services, sessionCookies }) => {
  const names = await parseJsonBody(request, ZPersonNames);
  await confirmSignerNames({ token, signerId: signerId!, names }, services.db);
  return jsonWithSession({ success: true }, sessionCookies(signerId!));
});
