import { withProcessToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { readFormFields } from "@/lib/request-reading/read-form-fields";
import { createProcess } from "@/lib/processes/create-process";
import { listProcesses } from "@/lib/processes/list-processes";
import { modifyProcess } from "@/lib/processes/modify-process";
import { rejectProcesses } from "@/lib/processes/reject-processes";
import { ZCreateProcessFields, ZListProcessesQuery, ZModifyProcess, ZRejectProcesses } from "@/lib/processes/schemas";

export const dynamic = "force-dynamic";

const text = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
const links = (services: { config: { secretKey: Buffer; publicUrl: string } }) => ({ secretKey: services.config.secretKey, publicUrl: services.config.publicUrl });

/** Create: multipart with pdfFiles (repeatable) and JSON text fields (decision 10). */
export const PUT = withProcessToken("processes:create", async (request, { caller, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 20 });
  const fields = parseWith(ZCreateProcessFields, body.fields);
  const created = await createProcess({ caller, fields, files: body.files }, { db: services.db, blobs: services.blobs, links: links(services), pools: services.pools });
  return Response.json(created, { status: 201 });
});

export const POST = withProcessToken("processes:modify", async (request, { caller, services }) => {
  const { fields } = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 });
  return text(await modifyProcess({ caller, data: parseWith(ZModifyProcess, fields) }, services.db));
});

export const GET = withProcessToken("processes:read", async (request, { caller, services }) => {
  const query = parseWith(ZListProcessesQuery, Object.fromEntries(new URL(request.url).searchParams));
  const page = await listProcesses({ organizationId: caller.organizationId, query }, { db: services.db, settings: links(services) });
  return Response.json(page.body, { status: page.status });
});

export const DELETE = withProcessToken("processes:reject", async (request, { caller, services }) => {
  const { fields } = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 });
  const { process_id_list } = parseWith(ZRejectProcesses, fields);
  return Response.json(await rejectProcesses({ caller, processIds: process_id_list }, services.db));
});
