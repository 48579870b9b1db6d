import { z } from "zod";
import { nationalities, nationalIdProblem, normalizeDocId } from "@/lib/identity-registry/check-national-id";
import { isFaceImageFormat } from "@/lib/registry-photos/schemas";

const checkDocId = (value: { nat: string; docId?: string }, ctx: z.RefinementCtx) => {
  if (value.docId !== undefined && nationalIdProblem(value.nat, value.docId)) ctx.addIssue({ code: "custom", path: ["docId"], message: "format" });
};
const ZDocId = z.string().trim().min(1, "required").max(20).transform(normalizeDocId);

/** The ID form of the signer page (messages are keys the page translates). */
export const ZIdentityForm = z.object({ nat: z.enum(nationalities), docId: ZDocId }).superRefine(checkDocId);

/** POST /api/signer/<token>/session: the ID number on identity links, nothing on links that identify by themselves. */
export const ZIdentifySigner = z.object({ nat: z.enum(nationalities).default("PER"), docId: ZDocId.optional() }).superRefine(checkDocId);
export type IdentifySigner = z.infer<typeof ZIdentifySigner>;

/** POST /api/signer/<token>/decline. */
export const ZDeclineSignature = z.object({ reason: z.string().trim().min(3, "required").max(500) });

export const FACIAL_FRAMES = { min: 3, max: 8, maxBytes: 1024 * 1024 } as const;

const isJpeg = (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

const ZFacialFrame = z.instanceof(Uint8Array).refine((b) => b.length <= FACIAL_FRAMES.maxBytes && isJpeg(b), "cada imagen debe ser un JPEG de hasta 1 MB");
const ZFacialTicket = z.string({ error: "falta el ticket del reto (POST facial/challenge)" }).max(200);

/** POST /api/signer/<token>/facial/frame (multipart): one `frame` of the capture under way, as it was taken, and its `ticket`. */
export const ZCapturedFrame = z.object({ frame: ZFacialFrame, ticket: ZFacialTicket });

export const ID_DOCUMENT_MAX_BYTES = 8 * 1024 * 1024;
const ZIdDocumentPhoto = z
  .instanceof(Uint8Array)
  .refine((b) => b.length <= ID_DOCUMENT_MAX_BYTES && isFaceImageFormat(b), "la foto del documento debe ser JPEG, PNG o WebP de hasta 8 MB");

/** POST /api/signer/<token>/facial/id-document (multipart): the `idDocument` photo the try will carry, sent when the capture starts, and its `ticket`. */
export const ZIdDocumentAhead = z.object({ idDocument: ZIdDocumentPhoto, ticket: ZFacialTicket });

/** POST /api/signer/<token>/facial (multipart): `frame` × 3–8 JPEGs in capture order, and `idDocument` when no registry photo exists. */
export const ZFacialUpload = z.object({
  frames: z
    .array(ZFacialFrame)
    .min(FACIAL_FRAMES.min, `se esperan entre ${FACIAL_FRAMES.min} y ${FACIAL_FRAMES.max} imágenes`)
    .max(FACIAL_FRAMES.max, `se esperan entre ${FACIAL_FRAMES.min} y ${FACIAL_FRAMES.max} imágenes`),
  idDocument: ZIdDocumentPhoto.optional(),
  ticket: ZFacialTicket,
});

/** POST /api/signer/<token>/pages: pages (0-based) of one file that were drawn in the signer's viewport. */
export const ZPagesShown = z.object({
  documentId: z.string().uuid(),
  pages: z.array(z.number().int().min(0).max(100_000)).min(1).max(1000),
});

/** Staff unlocking a signer (dashboard server action). */
export const ZUnlockSigner = z.object({ processId: z.string().trim().min(1).max(100), signerId: z.uuid() });
