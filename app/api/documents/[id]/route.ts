import { withPublic } from "@/lib/http/with-api-auth";
import { openDocumentLink } from "@/lib/processes/open-document-link";

export const dynamic = "force-dynamic";

/** Signed, 120-second document links from the process list and the callback payload. */
export const GET = withPublic("process", async (request, { services, params }) => {
  const url = new URL(request.url);
  const document = await openDocumentLink(
    { documentId: String(params.id), expires: Number(url.searchParams.get("expires")), signature: url.searchParams.get("signature") ?? "" },
    { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey },
  );
  return new Response(document.blob.stream, {
    headers: {
      ...(document.blob.size !== null ? { "content-length": String(document.blob.size) } : {}),
      "content-type": "application/pdf",
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(document.name)}`,
      "cache-control": "private, no-store",
    },
  });
});
