import { withPublic } from "@/lib/http/with-api-auth";
import { readAuthorization } from "@/lib/request-reading/parse-input";
import { answerTimeStampRequest } from "@/lib/certificates/time-stamp-authority";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { readRequestBytes } from "@/lib/request-reading/read-request-bytes";
import { AppError } from "@/lib/errors";
import { secretsMatch } from "@/lib/crypto/secrets-match";

export const dynamic = "force-dynamic";

const MAX_REQUEST_BYTES = 64 * 1024;

/** RFC 3161 over HTTP: application/timestamp-query in, application/timestamp-reply out. */
export const POST = withPublic("json", async (request, { services }) => {
  const token = services.config.TSA_AUTH_TOKEN;
  if (token && !secretsMatch(readAuthorization(request, ["bearer"]), token)) throw new AppError("UNAUTHORIZED");
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/timestamp-query")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type debe ser application/timestamp-query", "content-type");
  }
  const body = await readRequestBytes(request, MAX_REQUEST_BYTES);
  const { reply } = await answerTimeStampRequest(body, { db: services.db, settings: pkiSettingsOf(services.config) });
  return new Response(Buffer.from(reply), { headers: { "content-type": "application/timestamp-reply" } });
});
