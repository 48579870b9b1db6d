import { createHash } from "node:crypto";
import { withSession } from "@/lib/http/with-session";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { AppError } from "@/lib/errors";
import { buildTimeStampRequest, timeStampNonce } from "@/lib/tsa/build-time-stamp-request";
import { signTimeStamp } from "@/lib/stamp-signing/sign-time-stamp";

export const dynamic = "force-dynamic";

/** "Sello de tiempo" on /stamp: any file in, the built-in TSA's .tsr for its SHA-256 out (the file never leaves this request). */
export const POST = withSession("stamp:sign", async (request, { staff, services }) => {
  const body = await parseMultipart(request, { maxFileBytes: services.config.maxUploadBytes, maxFiles: 1 });
  const file = body.files.find((f) => f.field === "file");
  if (!file || file.bytes.length === 0) throw new AppError("VALIDATION", "file es obligatorio", "file");
  const tsq = buildTimeStampRequest(createHash("sha256").update(file.bytes).digest(), timeStampNonce());
  const { txToken, tsr } = await signTimeStamp({ caller: staff, tsq }, services);
  const name = `${file.filename.replace(/[^\w.-]+/g, "_") || "archivo"}.tsr`;
  return new Response(Buffer.from(tsr), {
    headers: {
      "content-type": "application/timestamp-reply",
      "content-disposition": `attachment; filename="${name}"`,
      "x-tx-token": txToken,
      "cache-control": "private, no-store",
    },
  });
});
