import { withStampToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { enrollCertificateHolder, ZEnrollCertificateHolder } from "@/lib/stamp-signing/enroll-certificate-holder";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

/** POST /api/v2|v3/certificateHolders — enrol a holder for `digital` signatures (admin). */
export const enrollCertificateHolderHandler = withStampToken("certificates:manage", async (request, { caller, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: 1024 * 1024, maxFiles: 1 });
  const fields = parseWith(ZEnrollCertificateHolder, body.fields);
  const p12 = body.files.find((f) => f.field === "p12_file")?.bytes;
  const holder = await enrollCertificateHolder({ ...fields, organizationId: caller.organizationId, p12, enrolledBy: { userId: caller.userId, actor: caller.email } }, { db: services.db, settings: pkiSettingsOf(services.config), pools: services.pools });
  return Response.json(
    { success: true, message: "Titular de certificado registrado", sign_username: holder.signUsername, subject: holder.subject, not_after: holder.notAfter.toISOString() },
    { status: 201 },
  );
});
