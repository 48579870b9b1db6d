import { withPublic } from "@/lib/http/with-api-auth";
import { clientAddress } from "@/lib/config/client-address";
import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { issueStampToken } from "@/lib/auth/issue-stamp-token";
import { ZStampTokenRequest } from "@/lib/auth/schemas";

export const dynamic = "force-dynamic";

/** v3 token: `{token}` (a JWT); every failure is `{error}`, 401 `invalid_credentials` for bad credentials. */
export const POST = withPublic("stamp-v3-token", async (request, { services }) => {
  const body = await parseJsonBody(request, ZStampTokenRequest);
  const { token } = await issueStampToken(
    { ...body, version: "v3", address: clientAddress(request, services.config.trustedProxies) },
    { db: services.db, settings: { secretKey: services.config.secretKey, ttlDays: services.config.STAMP_TOKEN_TTL_DAYS } },
  );
  return Response.json({ token });
});
