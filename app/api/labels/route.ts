import { withProcessToken } from "@/lib/http/with-api-auth";
import { parseWith } from "@/lib/request-reading/parse-input";
import { readFormFields } from "@/lib/request-reading/read-form-fields";
import { deleteLabel } from "@/lib/labels/delete-label";
import { listLabels } from "@/lib/labels/list-labels";
import { saveLabel } from "@/lib/labels/save-label";
import { ZLabelBody, ZListLabelsQuery } from "@/lib/labels/schemas";

export const dynamic = "force-dynamic";

const ok = () => new Response("ok", { headers: { "content-type": "text/plain; charset=utf-8" } });

export const GET = withProcessToken("labels:read", async (request, { caller, services }) => {
  const query = parseWith(ZListLabelsQuery, Object.fromEntries(new URL(request.url).searchParams));
  const page = await listLabels({ organizationId: caller.organizationId, query }, services.db);
  return Response.json(page.body, { status: page.status });
});

export const POST = withProcessToken("labels:write", async (request, { caller, services }) => {
  const { fields } = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 });
  await saveLabel({ caller, label: parseWith(ZLabelBody, fields).label }, services.db);
  return ok();
});

export const DELETE = withProcessToken("labels:write", async (request, { caller, services }) => {
  const { fields } = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 });
  await deleteLabel({ caller, label: parseWith(ZLabelBody, fields).label }, services.db);
  return ok();
});
