import { withSession } from "@/lib/http/with-session";
import { readReviewPicture } from "@/lib/identity-assurance/read-review-picture";

export const dynamic = "force-dynamic";

/** A picture of a pending identity review (card, portrait, selfie): only reviewers of the organization. */
export const GET = withSession("identity:review", async (_request, { staff, services, params }) => {
  const bytes = await readReviewPicture({ organizationId: staff.organizationId, reviewId: String(params.id), picture: String(params.picture) }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey });
  return new Response(Buffer.from(bytes), { headers: { "content-type": "image/jpeg", "cache-control": "private, no-store" } });
});
