"use server";

// the upload itself is POST /api/dashboard/registry-photos: server actions are held to 1 MB

import { revalidatePath } from "next/cache";
import { runStaffAction, type ActionResult } from "@/lib/http/run-staff-action";
import { parseWith } from "@/lib/request-reading/parse-input";
import { deleteRegistryPhoto } from "@/lib/registry-photos/delete-registry-photo";
import { REGISTRY_PHOTO_WRITE, ZRegistryPhotoId } from "@/lib/registry-photos/schemas";

export async function deleteRegistryPhotoAction(input: unknown): Promise<ActionResult> {
  return runStaffAction(REGISTRY_PHOTO_WRITE, async (staff, { db, blobs }) => {
    const { photoId } = parseWith(ZRegistryPhotoId, input);
    const deleted = await deleteRegistryPhoto({ organizationId: staff.organizationId, photoId, actor: staff.email }, { db, blobs });
    revalidatePath("/certificates");
    return { message: `Foto eliminada: ${deleted.nat} ${deleted.docId}` };
  });
}
