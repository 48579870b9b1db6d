import { withProcessToken } from "@/lib/http/with-api-auth";
import { readTextBody } from "@/lib/request-reading/parse-input";
import { importIdentityRegistry } from "@/lib/identity-registry/import-identity-registry";
import { IDENTITY_REGISTRY_WRITE } from "@/lib/identity-registry/schemas";

export const dynamic = "force-dynamic";

/** Imports names (CSV body `nat,doc_id,given_name,family_name`) into the organization's registry. Our extension; docs/signer-pages.md. */
export const PUT = withProcessToken(IDENTITY_REGISTRY_WRITE, async (request, { caller, services }) => {
  const csv = await readTextBody(request);
  const result = await importIdentityRegistry({ organizationId: caller.organizationId, csv, actor: caller.clientname }, services.db);
  return Response.json(result);
});
