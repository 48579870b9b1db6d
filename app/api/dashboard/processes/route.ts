import { withSession } from "@/lib/http/with-session";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { staffProcessCaller } from "@/lib/auth/staff-process-caller";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";

export const dynamic = "force-dynamic";

/** The dashboard's "new process" upload (XMLHttpRequest, for progress): same multipart and schema as PUT /api/signature_processes. */
export const PUT = withSession("processes:create", async (request, { staff, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 20 });
  const fields = parseWith(ZCreateProcessFields, body.fields);
  const links = { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl };
  const created = await createProcess({ caller: staffProcessCaller(staff), fields, files: body.files }, { db: services.db, blobs: services.blobs, links, pools: services.pools });
  return Response.json(created, { status: 201 });
});
