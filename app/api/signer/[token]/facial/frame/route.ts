import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { analyzeCapturedFrame } from "@/lib/signers/analyze-captured-frame";
import { FACIAL_FRAMES, ZCapturedFrame } from "@/lib/signers/schemas";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/**
 * One frame of the capture under way, as it was taken: `ticket` (from POST facial/challenge) and
 * `frame` (a JPEG). Analysed ahead of the try's upload (POST facial), which judges its own frames;
 * answers whether the frame held one usable face.
 */
export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: FACIAL_FRAMES.maxBytes, maxFiles: 1, maxFields: 2 });
  const upload = parseWith(ZCapturedFrame, { frame: body.files.find((f) => f.field === "frame")?.bytes, ticket: body.fields.ticket });
  const analysed = await analyzeCapturedFrame({ token, signerId: signerId!, ticket: upload.ticket, frame: upload.frame }, { db: services.db, secretKey: services.config.secretKey, facePool: services.pools.face });
  return Response.json({ success: true, ...analysed }, { headers: { "cache-control": "no-store" } });
});
