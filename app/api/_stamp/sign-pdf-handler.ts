import { withStampToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { pdfResponse } from "./pdf-response";
import { timed } from "@/lib/runtime/request-timing";

/** POST /api/v2|v3/signPDF */
export const signPdfHandler = withStampToken("stamp:sign", async (request, { caller, services }) => {
  const { blobs } = services;
  const staging = blobs.stageUpload ? { fields: ["pdf_file"], start: () => blobs.stageUpload!() } : undefined;
  const body = await timed("multipart", () => parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 2 }, staging));
  try {
    const fields = parseWith(ZSignPdfFields, body.fields);
    const file = (name: string) => body.files.find((f) => f.field === name);
    const result = await requestStampSignature({ caller, fields, pdf: file("pdf_file"), image: file("image"), moveUpload: true }, services);
    if (result.mode === "async") return Response.json({ success: true, message: "OK", tx_token: result.txToken, doc_id: result.docId });
    return timed("response", () => pdfResponse(result.pdf, result.txToken, fields.binary_resp, result));
  } finally {
    // a staged upload the signature did not store (refused, failed, a duplicate field) leaves no file
    await Promise.all(body.files.map((f) => f.staged?.discard()));
  }
});
