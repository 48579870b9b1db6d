import { getServices } from "@/lib/runtime/services";
import { checkHealth } from "@/lib/runtime/check-health";
import { logError } from "@/lib/runtime/log";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const { db } = await getServices();
    return Response.json(await checkHealth(db), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    logError("health check failed", error);
    return Response.json({ status: "error" }, { status: 503 });
  }
}
