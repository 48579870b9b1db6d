import { withSession } from "@/lib/http/with-session";
import { AppError } from "@/lib/errors";
import { readRegistryPhoto } from "@/lib/registry-photos/read-registry-photo";
import { ZRegistryPhotoId } from "@/lib/registry-photos/schemas";

export const dynamic = "force-dynamic";

/** A registry portrait for the certificates page: biometric data, so only biometrics:read, and only within the organization. */
export const GET = withSession("biometrics:read", async (_request, { staff, services, params }) => {
  const parsed = ZRegistryPhotoId.safeParse({ photoId: params.id });
  // a malformed id is just another photo this organization does not have
  if (!parsed.success) throw new AppError("NOT_FOUND");
  const photo = await readRegistryPhoto({ organizationId: staff.organizationId, photoId: parsed.data.photoId }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey });
  return new Response(Buffer.from(photo.bytes), { headers: { "content-type": photo.contentType, "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
});
