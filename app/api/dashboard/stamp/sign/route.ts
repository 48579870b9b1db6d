import { withSession } from "@/lib/http/with-session";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { bytesResponseBody } from "@/lib/http/bytes-response-body";

export const dynamic = "force-dynamic";

/** The dashboard's /stamp page: the same multipart, schema and use case as POST /api/v3/signPDF; answers the signed PDF. */
export const POST = withSession("stamp:sign", async (request, { staff, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 2 });
  const fields = parseWith(ZSignPdfFields, body.fields);
  const file = (name: string) => body.files.find((f) => f.field === name);
  const result = await requestStampSignature({ caller: staff, fields, pdf: file("pdf_file"), image: file("image"), moveUpload: true }, services);
  if (result.mode === "async") return Response.json({ success: true, message: "OK", tx_token: result.txToken, doc_id: result.docId }, { status: 202 });
  return new Response(bytesResponseBody(result.pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${result.txToken}.pdf"`,
      "x-tx-token": result.txToken,
      ...(result.padesLevel ? { "x-pades-level": result.padesLevel } : {}),
      "cache-control": "private, no-store",
    },
  });
});
