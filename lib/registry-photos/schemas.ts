import { z } from "zod";
import { sniffImageFormat } from "@/lib/images/read-image-header";
import type { Permission } from "@/lib/auth/roles";
import { nationalIdProblem, normalizeDocId } from "@/lib/identity-registry/check-national-id";

export const MAX_REGISTRY_PHOTO_BYTES = 8 * 1024 * 1024;

/**
 * Who may store, replace or delete registry photos: the API route and the dashboard ask the same
 * question. A reference portrait decides who passes as `registry`, so operators may not (issue 36).
 */
export const REGISTRY_PHOTO_WRITE: Permission = "identity:registry";

/** The formats face checks decode (lib/faces/decode-image.ts); registries and phones export WebP too. */
export const isFaceImageFormat = (bytes: Uint8Array) => ["jpeg", "png", "WebP"].includes(sniffImageFormat(bytes));

/** A JPEG, PNG or WebP upload, sniffed from its content (the name and declared type are not trusted). */
export const ZFaceImage = z
  .instanceof(Uint8Array, { message: "falta la imagen" })
  .refine((bytes) => bytes.length > 0 && bytes.length <= MAX_REGISTRY_PHOTO_BYTES, "la imagen debe pesar entre 1 byte y 8 MB")
  .refine(isFaceImageFormat, "la imagen debe ser JPEG, PNG o WebP");

/**
 * PUT /api/registry_photos (multipart) and the dashboard's upload form and action: nat, doc_id and
 * the photo bytes (the form reads the chosen file so the same sniffing runs in the browser).
 */
export const ZRegistryPhotoUpload = z
  .object({
    nat: z.string().trim().toUpperCase().default("PER"),
    doc_id: z.string().transform(normalizeDocId),
    photo: ZFaceImage,
  })
  .superRefine((value, ctx) => {
    const problem = nationalIdProblem(value.nat, value.doc_id);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.startsWith("nat") ? "nat" : "doc_id"], message: problem });
  });
export type RegistryPhotoUpload = z.infer<typeof ZRegistryPhotoUpload>;

/** One stored photo, named by its row id (dashboard thumbnail and delete). */
export const ZRegistryPhotoId = z.object({ photoId: z.uuid() });

/** Newest first, keyset-paged: `after` is the cursor a previous page returned. */
export const ZListRegistryPhotosQuery = z.object({
  after: z.string().regex(/^\d{1,15}_[0-9a-f-]{36}$/).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListRegistryPhotosQuery = z.infer<typeof ZListRegistryPhotosQuery>;

export type RegistryPhotoEntry = { id: string; nat: string; docId: string; createdAt: Date };
