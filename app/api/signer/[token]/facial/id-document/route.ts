import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { readIdDocumentAheadOfTry } from "@/lib/signers/read-id-document-ahead";
import { ID_DOCUMENT_MAX_BYTES, ZIdDocumentAhead } from "@/lib/signers/schemas";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/**
 * The ID card photo of the capture under way, sent when it starts: `ticket` (from POST
 * facial/challenge) and `idDocument`. Read ahead of the try's upload (POST facial), which judges
 * the photo it carries; answers only that it was received.
 */
export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: ID_DOCUMENT_MAX_BYTES, maxFiles: 1, maxFields: 2 });
  const upload = parseWith(ZIdDocumentAhead, { idDocument: body.files.find((f) => f.field === "idDocument")?.bytes, ticket: body.fields.ticket });
  const read = await readIdDocumentAheadOfTry({ token, signerId: signerId!, ticket: upload.ticket, idDocument: upload.idDocument }, { db: services.db, secretKey: services.config.secretKey, facePool: services.pools.face });
  return Response.json({ success: true, ...read }, { headers: { "cache-control": "no-store" } });
});
