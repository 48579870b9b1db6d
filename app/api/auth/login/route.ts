import { withPublic } from "@/lib/http/with-api-auth";
import { clientAddress } from "@/lib/config/client-address";
import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { issueProcessToken, ZProcessLogin } from "@/lib/auth/issue-process-token";
import { AppError, isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Process-API login: `{access_token}`, or 404 `not found`, the only failure the spec documents for login. */
export const POST = withPublic("process", async (request, { services }) => {
  const body = await parseJsonBody(request, ZProcessLogin).catch((error: unknown) => {
    if (isAppError(error) && error.code === "VALIDATION") throw new AppError("INVALID_CREDENTIALS", error.message, error.field ?? "body");
    throw error;
  });
  const accessToken = await issueProcessToken({ ...body, address: clientAddress(request, services.config.trustedProxies) }, { db: services.db, secretKey: services.config.secretKey });
  return Response.json({ access_token: accessToken });
});
