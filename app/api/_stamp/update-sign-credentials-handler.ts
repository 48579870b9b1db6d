import { withStampToken } from "@/lib/http/with-api-auth";
import { parseJsonBody } from "@/lib/request-reading/parse-input";
import { ZUpdateSignCredentials } from "@/lib/stamp-signing/schemas";
import { updateSignCredentials } from "@/lib/stamp-signing/update-sign-credentials";

/** POST /api/v2|v3/updateSignCredentials */
export const updateSignCredentialsHandler = withStampToken("stamp:sign", async (request, { caller, services }) => {
  const body = await parseJsonBody(request, ZUpdateSignCredentials);
  await updateSignCredentials({ userId: caller.userId, signUsername: body.sign_username, signPassword: body.sign_password }, { db: services.db, secretKey: services.config.secretKey });
  return Response.json({ success: true, message: "Credenciales registradas correctamente" });
});
