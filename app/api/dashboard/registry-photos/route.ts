import { withSession } from "@/lib/http/with-session";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { saveRegistryPhoto } from "@/lib/registry-photos/save-registry-photo";
import { MAX_REGISTRY_PHOTO_BYTES, REGISTRY_PHOTO_WRITE, ZRegistryPhotoUpload } from "@/lib/registry-photos/schemas";

export const dynamic = "force-dynamic";

/**
 * The certificates page's upload (or replacement) of a registry photo: the same schema and use case
 * as PUT /api/registry_photos, here because server actions are held to 1 MB and a photo may be 8.
 */
export const POST = withSession(REGISTRY_PHOTO_WRITE, async (request, { staff, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: MAX_REGISTRY_PHOTO_BYTES, maxFiles: 1, maxFields: 5 });
  const upload = parseWith(ZRegistryPhotoUpload, { ...body.fields, photo: body.files.find((f) => f.field === "photo")?.bytes });
  const saved = await saveRegistryPhoto({ organizationId: staff.organizationId, upload, supplier: { kind: "user", id: staff.userId, name: staff.email } }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey });
  return Response.json({ nat: saved.nat, docId: saved.doc_id, replaced: saved.replaced }, { status: saved.replaced ? 200 : 201 });
});
