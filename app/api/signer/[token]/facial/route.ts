import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { parseWith } from "@/lib/request-reading/parse-input";
import { runFacialCheck } from "@/lib/signers/run-facial-check";
import { ZFacialUpload } from "@/lib/signers/schemas";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/**
 * One facial try: `ticket` (from POST facial/challenge), `frame` (3–8 JPEGs in capture order: the
 * start pose, then the frames of each movement) and, without a registry photo, `idDocument`.
 */
export const POST = withSignerLink({ session: "required" }, async (request, { token, signerId, sessionId, services, client }) => {
  const body = await parseMultipart(request, { maxFileBytes: 8 * 1024 * 1024, maxFiles: 9, maxFields: 5 });

  const upload = parseWith(ZFacialUpload, {
    frames: body.files.filter((f) => f.field === "frame").map((f) => f.bytes),
    idDocument: body.files.find((f) => f.field === "idDocument")?.bytes,
    ticket: body.fields.ticket,
  });
  const outcome = await runFacialCheck({ token, signerId: signerId!, sessionId: sessionId!, ticket: upload.ticket, frames: upload.frames, idDocument: upload.idDocument, client }, services);
  return Response.json({ success: true, ...outcome }, { headers: { "cache-control": "no-store" } });
});
