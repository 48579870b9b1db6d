import { withPublic } from "@/lib/http/with-api-auth";
import { readAuthorization } from "@/lib/request-reading/parse-input";
import { AppError } from "@/lib/errors";
import { isMetricsToken } from "@/lib/metrics/is-metrics-token";
import { renderMetrics } from "@/lib/runtime/render-metrics";

export const dynamic = "force-dynamic";

/** Prometheus scrape endpoint, behind `Authorization: Bearer $METRICS_TOKEN`; without the setting it does not exist. */
export const GET = withPublic("json", async (request, { services }) => {
  const expected = services.config.METRICS_TOKEN;
  if (!expected) throw new AppError("NOT_FOUND");
  if (!isMetricsToken(readAuthorization(request, ["bearer"]), expected)) throw new AppError("UNAUTHORIZED");
  const { contentType, body } = await renderMetrics(services);
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
