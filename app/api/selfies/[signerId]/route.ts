import { withProcessToken } from "@/lib/http/with-api-auth";
import { openSelfieLink } from "@/lib/processes/open-selfie-link";

export const dynamic = "force-dynamic";

/** The selfie behind `sign_data.facial.selfie`: a signed 120 s link, for a process-API credential with biometrics:read. */
export const GET = withProcessToken("biometrics:read", async (request, { caller, services, params }) => {
  const url = new URL(request.url);
  const bytes = await openSelfieLink(
    {
      organizationId: caller.organizationId,
      signerId: String(params.signerId),
      facialId: url.searchParams.get("try") ?? "",
      expires: Number(url.searchParams.get("expires")),
      signature: url.searchParams.get("signature") ?? "",
      actor: caller.clientname,
    },
    { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey },
  );
  return new Response(Buffer.from(bytes), { headers: { "content-type": "image/jpeg", "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
});
