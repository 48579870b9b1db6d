import { withSession } from "@/lib/http/with-session";
import { readSignerSelfie } from "@/lib/processes/read-signer-selfie";

export const dynamic = "force-dynamic";

/** A signer's selfie: biometric data, so only roles with biometrics:read, and only within the organization. */
export const GET = withSession("biometrics:read", async (_request, { staff, services, params }) => {
  const bytes = await readSignerSelfie({ organizationId: staff.organizationId, signerId: String(params.signerId) }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey });
  return new Response(Buffer.from(bytes), { headers: { "content-type": "image/jpeg", "cache-control": "private, no-store" } });
});
