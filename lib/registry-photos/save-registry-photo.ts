import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { encryptBiometric } from "@/lib/signers/encrypt-biometric";
import type { RegistryPhotoUpload } from "./schemas";

/**
 * Stores (or replaces) the organization's reference portrait for one person. The photo must show
 * one clear face (FaceError otherwise, before anything is stored); it is kept encrypted.
 */
export async function saveRegistryPhoto(
  input: { organizationId: string; upload: RegistryPhotoUpload },
  db: Db,
  services: { blobs: BlobStore; secretKey: Uint8Array },
): Promise<{ nat: string; doc_id: string; replaced: boolean; face: { width: number; height: number } }> {
  const { organizationId, upload } = input;
  const face = await analyzeFace(upload.photo, { multipleFaces: "largest" });
  const blobKey = `${organizationId}/registry-photos/${upload.nat}-${upload.doc_id}-${randomUUID()}.enc`;
  await services.blobs.put(blobKey, encryptBiometric(upload.photo, services.secretKey, organizationId), "application/octet-stream");
  const where = and(eq(registryPhotos.organizationId, organizationId), eq(registryPhotos.nat, upload.nat), eq(registryPhotos.docId, upload.doc_id));
  const [previous] = await db.select({ blobKey: registryPhotos.blobKey }).from(registryPhotos).where(where).limit(1);
  await db
    .insert(registryPhotos)
    .values({ organizationId, nat: upload.nat, docId: upload.doc_id, blobKey })
    .onConflictDoUpdate({ target: [registryPhotos.organizationId, registryPhotos.nat, registryPhotos.docId], set: { blobKey, createdAt: new Date() } });
  if (previous && previous.blobKey !== blobKey) await services.blobs.delete(previous.blobKey);
  return { nat: upload.nat, doc_id: upload.doc_id, replaced: Boolean(previous), face: { width: face.box.width, height: face.box.height } };
}
