import { withStampToken } from "@/lib/http/with-api-auth";
import { parseWith } from "@/lib/request-reading/parse-input";
import { ZGetSignedPdfQuery } from "@/lib/stamp-signing/schemas";
import { getSignedPdf } from "@/lib/stamp-signing/get-signed-pdf";
import { pdfResponse } from "./pdf-response";

/** GET /api/v2|v3/getSignedPDF?tx_token=&binary_resp= — pending 202, failed 422, done 200. */
export const getSignedPdfHandler = withStampToken("stamp:sign", async (request, { caller, services }) => {
  const query = parseWith(ZGetSignedPdfQuery, Object.fromEntries(new URL(request.url).searchParams));
  const result = await getSignedPdf({ organizationId: caller.organizationId, txToken: query.tx_token }, { db: services.db, blobs: services.blobs });
  if (result.state === "pending") return Response.json({ success: false, message: "El documento aún se está procesando", tx_token: result.txToken }, { status: 202 });
  if (result.state === "failed") return Response.json({ success: false, message: result.message, tx_token: result.txToken }, { status: 422 });
  return pdfResponse(result.pdf, result.txToken, query.binary_resp, result);
});
