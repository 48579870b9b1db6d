import { withPublic } from "@/lib/http/with-api-auth";
import { checkReadiness } from "@/lib/runtime/check-readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when the database, the blob store and the pool workers answer; 503 naming the one that did not. */
export const GET = withPublic("json", async (_request, { services }) => {
  const readiness = await checkReadiness({ db: services.db, blobs: services.blobs, cpuPool: services.pools.cpu, facePool: services.pools.face });
  return Response.json(readiness, { status: readiness.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
});
