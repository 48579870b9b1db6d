import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { declineSignature } from "@/lib/signers/decline-signature";
import { ZDeclineSignature } from "@/lib/signers/schemas";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, services }) => {
  const { reason } = await parseJsonBody(request, ZDeclineSignature);
  const result = await declineSignature({ token, signerId: signerId!, reason }, services.db);
  return Response.json({ success: true, ...result });
});
