import { withPublic } from "@/lib/http/with-api-auth";
import { sharedReadiness } from "@/lib/runtime/shared-readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when the database, the blob store and the pool workers answer; 503 naming the one that did not. At most one check per 2 s. */
export const GET = withPublic("json", async (_request, { services }) => {
  const readiness = await sharedReadiness(services);
  return Response.json(readiness, { status: readiness.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
});
