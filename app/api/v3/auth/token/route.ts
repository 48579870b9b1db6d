import { withPublic } from "@/lib/http/with-api-auth";
import { clientAddress } from "@/lib/auth/throttle-logins";
import { parseWith, readJsonBody } from "@/lib/http/parse-input";
import { issueStampToken } from "@/lib/auth/issue-stamp-token";
import { ZStampTokenRequest } from "@/lib/auth/schemas";
import { isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** v3 token: `{token}` (a JWT), or 401 `{error: "invalid_credentials"}` as the original service answers. */
export const POST = withPublic("stamp", async (request, { services }) => {
  const body = parseWith(ZStampTokenRequest, (await readJsonBody(request)) ?? null);
  try {
    const { token } = await issueStampToken(
      { ...body, version: "v3", address: clientAddress(request) },
      { secretKey: services.config.secretKey, ttlDays: services.config.STAMP_TOKEN_TTL_DAYS },
      services.db,
    );
    return Response.json({ token });
  } catch (error) {
    if (isAppError(error) && error.code === "INVALID_CREDENTIALS") {
      return Response.json({ error: "invalid_credentials" }, { status: 401 });
    }
    throw error;
  }
});
