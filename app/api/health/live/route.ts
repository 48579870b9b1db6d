import { withRequestContext } from "@/lib/http/with-api-auth";

export const dynamic = "force-dynamic";

/** Liveness: the process answers HTTP. Nothing else is checked (not even the services), so a slow database never gets it restarted. */
export const GET = withRequestContext(() => Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } }));
