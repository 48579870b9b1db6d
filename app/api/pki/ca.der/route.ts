import { withPublic } from "@/lib/http/with-api-auth";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

export const dynamic = "force-dynamic";

/** The root CA certificate in DER (what Windows and Adobe import). */
export const GET = withPublic("json", async (_request, { services }) => {
  const { rootDer } = await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) });
  return new Response(Buffer.from(rootDer), { headers: { "content-type": "application/pkix-cert", "content-disposition": 'attachment; filename="firmaviva-root-ca.cer"' } });
});
