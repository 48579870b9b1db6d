import { AppError } from "@/lib/errors";
import { withPublic } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { verifyUploadedPdf } from "@/lib/verification/verify-uploaded-pdf";
import { publicVerificationLimit } from "@/lib/verification/public-verification-limit";
import { clientAddress } from "@/lib/config/client-address";

export const dynamic = "force-dynamic";

/**
 * Public: multipart `file` (a signed PDF) in, a report of its signatures out. Nothing is stored.
 * The address's budget is spent before the body is read; the work runs in the pool's public lane.
 */
export const POST = withPublic("json", async (request, { services }) => {
  publicVerificationLimit(services.config.VERIFY_RATE_LIMIT).take(clientAddress(request, services.config.trustedProxies));
  const { files } = await parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 1, maxFields: 5 });
  const file = files.find((f) => f.field === "file");
  if (!file || file.bytes.length === 0) throw new AppError("VALIDATION", "Adjunte un archivo PDF.", "file");
  const report = await verifyUploadedPdf(file.bytes, { db: services.db, config: services.config, pools: services.pools });
  return Response.json({ success: true, ...report }, { headers: { "cache-control": "no-store" } });
});
