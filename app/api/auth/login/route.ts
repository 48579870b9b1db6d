import { withPublic } from "@/lib/http/with-api-auth";
import { clientAddress } from "@/lib/auth/throttle-logins";
import { parseJsonBody } from "@/lib/http/parse-input";
import { issueProcessToken, ZProcessLogin } from "@/lib/auth/issue-process-token";

export const dynamic = "force-dynamic";

/** Process-API login: `{access_token}`, or 404 `not found`. */
export const POST = withPublic("process", async (request, { services }) => {
  const body = await parseJsonBody(request, ZProcessLogin);
  const accessToken = await issueProcessToken({ ...body, address: clientAddress(request) }, services.config.secretKey, services.db);
  return Response.json({ access_token: accessToken });
});
