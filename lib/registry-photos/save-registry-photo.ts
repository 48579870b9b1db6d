import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { getOrganizationSettings } from "@/lib/organizations/get-organization-settings";
import { encryptBiometric } from "@/lib/crypto/encrypt-biometric";
import type { ReferenceSupplier } from "@/lib/identity-assurance/identity-level";
import type { RegistryPhotoUpload } from "./schemas";

/**
 * Stores (or replaces) the organization's reference portrait for one person. The nat must be one
 * the organization enables for signers and the photo must show one clear face (FaceError otherwise,
 * before anything is stored); it is kept encrypted, with who supplied it and when (the signer's
 * `referenceBy`). Used by PUT /api/registry_photos and the dashboard.
 */
export async function saveRegistryPhoto(
  input: { organizationId: string; upload: RegistryPhotoUpload; supplier: Omit<ReferenceSupplier, "at"> },
  { db, ...services }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<{ nat: string; doc_id: string; replaced: boolean; face: { width: number; height: number } }> {
  const { organizationId, upload } = input;
  const organization = await getOrganizationSettings({ organizationId }, db);
  // a photo for an ID type no signer of this organization can have would never be matched
  if (!organization.enabledNationalities.includes(upload.nat)) throw new AppError("VALIDATION", `nat ${upload.nat} no está habilitado para la organización`, "nat");
  const face = await analyzeFace(upload.photo, { multipleFaces: "largest" });
  const blobKey = `${organizationId}/registry-photos/${upload.nat}-${upload.doc_id}-${randomUUID()}.enc`;
  await services.blobs.put(blobKey, encryptBiometric(upload.photo, services.secretKey, organizationId), "application/octet-stream");
  const where = and(eq(registryPhotos.organizationId, organizationId), eq(registryPhotos.nat, upload.nat), eq(registryPhotos.docId, upload.doc_id));
  const now = new Date();
  const suppliedBy: ReferenceSupplier = { ...input.supplier, at: now.toISOString() };
  const previous = await db.transaction(async (tx) => {
    const [row] = await tx.select({ blobKey: registryPhotos.blobKey }).from(registryPhotos).where(where).limit(1);
    await tx
      .insert(registryPhotos)
      .values({ organizationId, nat: upload.nat, docId: upload.doc_id, blobKey, suppliedBy, createdAt: now })
      .onConflictDoUpdate({ target: [registryPhotos.organizationId, registryPhotos.nat, registryPhotos.docId], set: { blobKey, suppliedBy, createdAt: now } });
    await recordAuditEvent(
      {
        organizationId,
        actor: input.supplier.name,
        action: row ? "registry_photo.replaced" : "registry_photo.saved",
        target: `${upload.nat}:${upload.doc_id}`,
        detail: { suppliedBy },
      },
      tx,
    );
    return row;
  });
  if (previous && previous.blobKey !== blobKey) await services.blobs.delete(previous.blobKey);
  return { nat: upload.nat, doc_id: upload.doc_id, replaced: Boolean(previous), face: { width: face.box.width, height: face.box.height } };
}
