import { withPublic } from "@/lib/http/with-api-auth";
import { clientAddress } from "@/lib/config/client-address";
import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { issueStampToken } from "@/lib/auth/issue-stamp-token";
import { ZStampTokenRequest } from "@/lib/auth/schemas";

export const dynamic = "force-dynamic";

/** v2 token: `{status: 200, data: {token}}`. */
export const POST = withPublic("stamp", async (request, { services }) => {
  const body = await parseJsonBody(request, ZStampTokenRequest);
  const { token } = await issueStampToken(
    { ...body, version: "v2", address: clientAddress(request, services.config.trustedProxies) },
    { db: services.db, settings: { secretKey: services.config.secretKey, ttlDays: services.config.STAMP_TOKEN_TTL_DAYS } },
  );
  return Response.json({ status: 200, data: { token } });
});
