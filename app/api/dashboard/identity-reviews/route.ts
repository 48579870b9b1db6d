import { withSession } from "@/lib/http/with-session";
import { listIdentityReviews } from "@/lib/identity-assurance/list-identity-reviews";

export const dynamic = "force-dynamic";

/** The organization's identity reviews awaiting a decision (the dashboard queue as JSON), oldest first. */
export const GET = withSession("identity:review", async (_request, { staff, services }) => {
  const reviews = await listIdentityReviews({ organizationId: staff.organizationId }, services.db);
  return Response.json({ success: true, reviews }, { headers: { "cache-control": "private, no-store" } });
});
