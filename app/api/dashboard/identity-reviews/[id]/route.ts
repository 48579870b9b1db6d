import { z } from "zod";
import { withSession } from "@/lib/http/with-session";
import { parseJsonBody, parseWith } from "@/lib/request-reading/parse-input";
import { approveIdentityReview } from "@/lib/identity-reviews/approve-identity-review";
import { rejectIdentityReview } from "@/lib/identity-reviews/reject-identity-review";

export const dynamic = "force-dynamic";

const ZDecision = z.discriminatedUnion("decision", [z.object({ decision: z.literal("approve") }), z.object({ decision: z.literal("reject"), reason: z.string().max(300) })]);

/** Approve or reject one identity review, as the queue's buttons do (for scripts and tests): {decision, reason?}. */
export const POST = withSession("identity:review", async (request, { staff, services, params }) => {
  const { reviewId } = parseWith(z.object({ reviewId: z.uuid() }), { reviewId: params.id });
  const body = await parseJsonBody(request, ZDecision);
  const outcome = body.decision === "approve" ? await approveIdentityReview({ reviewId, staff }, services.db) : await rejectIdentityReview({ reviewId, reason: body.reason, staff }, services.db);
  return Response.json({ success: true, ...outcome });
});
