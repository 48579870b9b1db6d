import { signOrAwaitReview } from "@/lib/signers/sign-or-await-review";
import { jsonWithSession, withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** Signs every file of this signer (or, under identity review, records the request); the session is renewed so the signed copies stay downloadable for a while. */
export const POST = withSignerLink({ session: "required" }, async (_request, { token, signerId, sessionId, services, sessionCookies, client }) => {
  const result = await signOrAwaitReview({ token, signerId: signerId!, sessionId: sessionId!, client }, services);
  return jsonWithSession({ success: true, ...result }, sessionCookies(signerId!));
});
