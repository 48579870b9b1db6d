import { withPublic } from "@/lib/http/with-api-auth";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

export const dynamic = "force-dynamic";

/** Root and issuing CA in PEM, for `pdfsig`/NSS, openssl and readers to trust our signatures. */
export const GET = withPublic("json", async (_request, { services }) => {
  const { pem } = await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) });
  return new Response(pem, { headers: { "content-type": "application/x-pem-file", "content-disposition": 'inline; filename="firmaviva-ca.pem"' } });
});
