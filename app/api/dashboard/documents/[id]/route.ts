import { withSession } from "@/lib/http/with-session";
import { readProcessDocument } from "@/lib/processes/read-process-document";
import { bytesResponseBody } from "@/lib/http/bytes-response-body";

export const dynamic = "force-dynamic";

/** Dashboard download of a process document (original or current signed revision), for staff of its organization. */
export const GET = withSession("processes:read", async (request, { staff, services, params }) => {
  const version = new URL(request.url).searchParams.get("version") === "original" ? "original" : "current";
  const document = await readProcessDocument({ organizationId: staff.organizationId, documentId: String(params.id), version }, { db: services.db, blobs: services.blobs });
  return new Response(bytesResponseBody(document.bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(document.name)}`,
      "cache-control": "private, no-store",
    },
  });
});
