import { readSigningDocument } from "@/lib/signers/read-signing-document";
import { pdfRangeResponse } from "@/lib/http/pdf-range-response";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** The document to read (current revision), or the signed copy once this signer signed; `?download=1` saves it. */
export const GET = withSignerLink({ session: "required" }, async (request, { token, signerId, services, params }) => {
  const document = await readSigningDocument({ token, signerId: signerId!, documentId: String(params.documentId) }, { db: services.db, blobs: services.blobs });
  return pdfRangeResponse(request, document.bytes, { filename: document.name, download: new URL(request.url).searchParams.has("download") });
});
