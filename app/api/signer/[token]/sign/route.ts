import { signAsProcessSigner } from "@/lib/signers/sign-as-process-signer";
import { jsonWithSession, withSignerLink } from "../../_http/with-signer-link";

export const dynamic = "force-dynamic";

/** Signs every file of this signer; the session is renewed so the signed copies stay downloadable for a while. */
export const POST = withSignerLink({ session: "required" }, async (_request, { token, signerId, services, sessionCookies, client }) => {
  const result = await signAsProcessSigner({ token, signerId: signerId!, client }, services);
  return jsonWithSession({ success: true, ...result }, sessionCookies(signerId!));
});
