import { z } from "zod";
import { nationalIdProblem, normalizeDocId } from "@/lib/processes/check-national-id";

export const MAX_REGISTRY_PHOTO_BYTES = 8 * 1024 * 1024;

const isJpegOrPng = (bytes: Uint8Array) =>
  (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) || (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47);

/** A JPEG or PNG upload, sniffed from its content (the name and declared type are not trusted). */
export const ZFaceImage = z
  .instanceof(Uint8Array, { message: "falta la imagen" })
  .refine((bytes) => bytes.length > 0 && bytes.length <= MAX_REGISTRY_PHOTO_BYTES, "la imagen debe pesar entre 1 byte y 8 MB")
  .refine(isJpegOrPng, "la imagen debe ser JPEG o PNG");

/** PUT /api/registry_photos (multipart): nat, doc_id and the photo file. */
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
