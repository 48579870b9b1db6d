import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registryPhotos } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { decryptBiometric } from "@/lib/crypto/encrypt-biometric";
import { sniffImageFormat } from "@/lib/images/read-image-header";

/** One registry photo, decrypted, for staff of its own organization; NOT_FOUND for any other. */
export async function readRegistryPhoto(
  input: { organizationId: string; photoId: string },
  { db, ...services }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<{ bytes: Uint8Array; contentType: "image/jpeg" | "image/png" | "image/webp" }> {
  const [row] = await db
    .select({ blobKey: registryPhotos.blobKey })
    .from(registryPhotos)
    .where(and(eq(registryPhotos.id, input.photoId), eq(registryPhotos.organizationId, input.organizationId)))
    .limit(1);
  const blob = row ? await services.blobs.get(row.blobKey) : null;
  if (!blob) throw new AppError("NOT_FOUND");
  const bytes = decryptBiometric(blob, services.secretKey, input.organizationId);
  // only JPEG, PNG and WebP are accepted on upload (ZFaceImage), so the magic bytes tell them apart
  const format = sniffImageFormat(bytes);
  return { bytes, contentType: format === "png" ? "image/png" : format === "WebP" ? "image/webp" : "image/jpeg" };
}
