import { withStampToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { importAgentCertificate } from "@/lib/certificates/import-agent-certificate";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";

/** POST /api/v2|v3/agentCertificate — the organization's own agent certificate from PKCS#12 (admin). */
export const importAgentCertificateHandler = withStampToken("certificates:manage", async (request, { caller, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: 1024 * 1024, maxFiles: 1 });
  const p12 = body.files.find((f) => f.field === "p12_file")?.bytes;
  const result = await importAgentCertificate({ organizationId: caller.organizationId, p12, password: body.fields.p12_password ?? "" }, { db: services.db, settings: pkiSettingsOf(services.config), pools: services.pools });
  return Response.json({ success: true, message: "Certificado de agente importado", subject: result.subject, issuer: result.issuer, not_after: result.notAfter.toISOString() }, { status: 201 });
});
