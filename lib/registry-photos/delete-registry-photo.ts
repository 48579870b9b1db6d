import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";

/**
 * Deletes one registry photo of the organization: its signers are matched against their ID
 * document again. The encrypted blob goes once the row and its audit entry are committed.
 */
export async function deleteRegistryPhoto(
  input: { organizationId: string; photoId: string; actor: string },
  { db, ...services }: { db: Db; blobs: BlobStore },
): Promise<{ nat: string; docId: string }> {
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(registryPhotos)
      .where(and(eq(registryPhotos.id, input.photoId), eq(registryPhotos.organizationId, input.organizationId)))
      .returning({ nat: registryPhotos.nat, docId: registryPhotos.docId, blobKey: registryPhotos.blobKey });
    if (!deleted) throw new AppError("NOT_FOUND", "la foto de registro no existe o ya fue eliminada");
    await recordAuditEvent({ organizationId: input.organizationId, actor: input.actor, action: "registry_photo.deleted", target: `${deleted.nat}:${deleted.docId}` }, tx);
    return deleted;
  });
  await services.blobs.delete(row.blobKey);
  return { nat: row.nat, docId: row.docId };
}
