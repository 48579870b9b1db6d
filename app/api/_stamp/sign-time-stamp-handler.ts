import { withStampToken } from "@/lib/http/with-api-auth";
import { parseMultipart } from "@/lib/request-reading/parse-multipart";
import { signTimeStamp } from "@/lib/stamp-signing/sign-time-stamp";
import { timed } from "@/lib/runtime/request-timing";

/** POST /api/v2|v3/signTimeStamp (multipart tsq_file; the spec lists a JSON content type, we accept multipart). */
export const signTimeStampHandler = withStampToken("stamp:sign", async (request, { caller, services }) => {
  const body = await timed("multipart", () => parseMultipart(request, { maxFileBytes: 64 * 1024, maxFiles: 1 }));
  const tsq = body.files.find((f) => f.field === "tsq_file")?.bytes;
  // the use case's SQL is charged to "database" by the client; the rest is the TSA's work
  const { txToken, tsr } = await timed("tsa", () => signTimeStamp({ caller, tsq }, services));
  return timed("response", () => timeStampAnswer(txToken, tsr));
});

/** The JSON answer, built once (no stream); next.config.js marks it no-transform, so it is not gzipped. */
function timeStampAnswer(txToken: string, tsr: Uint8Array): Response {
  const tsrFile = Buffer.from(tsr.buffer, tsr.byteOffset, tsr.byteLength).toString("base64");
  const body = JSON.stringify({ success: true, message: "OK", tx_token: txToken, tsr_file: tsrFile });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
