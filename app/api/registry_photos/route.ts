import { withProcessToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { saveRegistryPhoto } from "@/lib/registry-photos/save-registry-photo";
import { MAX_REGISTRY_PHOTO_BYTES, REGISTRY_PHOTO_WRITE, ZRegistryPhotoUpload } from "@/lib/registry-photos/schemas";

export const dynamic = "force-dynamic";

/** Stores or replaces the reference portrait for nat + doc_id (multipart: nat, doc_id, photo). Documented in docs/signer-pages.md. */
export const PUT = withProcessToken(REGISTRY_PHOTO_WRITE, async (request, { caller, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: MAX_REGISTRY_PHOTO_BYTES, maxFiles: 1, maxFields: 5 });
  const upload = parseWith(ZRegistryPhotoUpload, { ...body.fields, photo: body.files.find((f) => f.field === "photo")?.bytes });
  const saved = await saveRegistryPhoto({ organizationId: caller.organizationId, upload, supplier: { kind: "credential", id: caller.credentialId, name: caller.clientname } }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey });
  return Response.json(saved, { status: saved.replaced ? 200 : 201 });
});
