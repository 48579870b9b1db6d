import { withProcessToken } from "@/lib/http/with-api-auth";
import { parseWith } from "@/lib/request-reading/parse-input";
import { readFormFields } from "@/lib/request-reading/read-form-fields";
import { notifyProcess } from "@/lib/processes/notify-process";
import { ZNotifyProcess } from "@/lib/processes/schemas";

export const dynamic = "force-dynamic";

/** Re-issues the signing links and notifies the signers; answers in the organization's link mode. */
export const POST = withProcessToken("processes:notify", async (request, { caller, services }) => {
  const { fields } = await readFormFields(request, { maxFileBytes: 1, maxFiles: 0 });
  const data = parseWith(ZNotifyProcess, fields);
  const message = await notifyProcess({ caller, processId: data.process_id, linkExpire: data.link_expire }, {
    db: services.db,
    settings: {
      secretKey: services.config.secretKey,
      publicUrl: services.config.publicUrl,
    },
  });
  if (typeof message === "string") return new Response(message, { headers: { "content-type": "text/plain; charset=utf-8" } });
  return Response.json(message);
});
