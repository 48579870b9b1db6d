"use server";

import { revalidatePath } from "next/cache";
import { runStaffAction, type ActionResult } from "@/lib/auth/run-staff-action";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/parse-input";
import { deleteRegistryPhoto } from "@/lib/registry-photos/delete-registry-photo";
import { saveRegistryPhoto } from "@/lib/registry-photos/save-registry-photo";
import { MAX_REGISTRY_PHOTO_BYTES, REGISTRY_PHOTO_WRITE, ZRegistryPhotoId, ZRegistryPhotoUpload } from "@/lib/registry-photos/schemas";

/** Upload or replace (same nat + doc_id): the same schema and use case as PUT /api/registry_photos. */
export async function saveRegistryPhotoAction(form: FormData): Promise<ActionResult<{ nat: string; docId: string; replaced: boolean }>> {
  return runStaffAction(REGISTRY_PHOTO_WRITE, async (staff, { db, blobs, config }) => {
    const file = form.get("photo");
    // refuse before reading: the action's body limit is far above a photo's
    if (file instanceof File && file.size > MAX_REGISTRY_PHOTO_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "la imagen debe pesar entre 1 byte y 8 MB", "photo");
    const photo = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : undefined;
    const upload = parseWith(ZRegistryPhotoUpload, { nat: form.get("nat") ?? undefined, doc_id: form.get("doc_id") ?? "", photo });
    const saved = await saveRegistryPhoto({ organizationId: staff.organizationId, upload, actor: staff.email }, db, { blobs, secretKey: config.secretKey });
    revalidatePath("/certificates");
    return { message: `${saved.replaced ? "Foto reemplazada" : "Foto registrada"}: ${saved.nat} ${saved.doc_id}`, data: { nat: saved.nat, docId: saved.doc_id, replaced: saved.replaced } };
  });
}

export async function deleteRegistryPhotoAction(input: unknown): Promise<ActionResult> {
  return runStaffAction(REGISTRY_PHOTO_WRITE, async (staff, { db, blobs }) => {
    const { photoId } = parseWith(ZRegistryPhotoId, input);
    const deleted = await deleteRegistryPhoto({ organizationId: staff.organizationId, photoId, actor: staff.email }, db, { blobs });
    revalidatePath("/certificates");
    return { message: `Foto eliminada: ${deleted.nat} ${deleted.docId}` };
  });
}
