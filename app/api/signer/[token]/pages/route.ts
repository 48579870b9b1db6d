import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { recordPagesShown } from "@/lib/signers/record-pages-shown";
import { ZPagesShown } from "@/lib/signers/schemas";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** The reading step reports pages drawn in the viewport; answers how much of each file was shown. */
export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, sessionId, services, client }) => {
  const input = await parseJsonBody(request, ZPagesShown);
  const progress = await recordPagesShown({ token, signerId: signerId!, sessionId: sessionId!, ...input, client }, services.db);
  return Response.json({ success: true, ...progress }, { headers: { "cache-control": "no-store" } });
});
