export const dynamic = "force-dynamic";

/** Liveness: the process answers HTTP. Nothing else is checked, so a slow database never gets it restarted. */
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
