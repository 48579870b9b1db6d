import { withSession } from "@/lib/http/with-session";
import { produceEvidenceSummary } from "@/lib/evidence/produce-evidence-summary";

export const dynamic = "force-dynamic";

/** The signed evidence summary of a process, for staff of its organization (another organization's id: 404). */
export const GET = withSession("processes:read", async (_request, { staff, services, params }) => {
  const processId = decodeURIComponent(String(params.id));
  const summary = await produceEvidenceSummary({ organizationId: staff.organizationId, processId, actor: staff.email }, services);
  return new Response(Buffer.from(summary.pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${summary.fileName}"`,
      "cache-control": "private, no-store",
    },
  });
});
