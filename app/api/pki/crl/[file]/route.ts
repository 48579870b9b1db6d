import { withPublic } from "@/lib/http/with-api-auth";
import { publishCrl } from "@/lib/certificates/publish-crl";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

export const dynamic = "force-dynamic";

/** The CRL named in the CRL distribution point of every certificate we issue. */
export const GET = withPublic("json", async (_request, { services, params }) => {
  const crl = await publishCrl(String(params.file), { db: services.db, settings: pkiSettingsOf(services.config) });
  return new Response(Buffer.from(crl), { headers: { "content-type": "application/pkix-crl", "cache-control": "public, max-age=3600" } });
});
