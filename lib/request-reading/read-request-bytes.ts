import { AppError } from "@/lib/errors";

/** Reads a small binary body, stopping as soon as it passes the limit. */
export async function readRequestBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError("PAYLOAD_TOO_LARGE", `el cuerpo supera ${maxBytes} bytes`, "body");
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError("PAYLOAD_TOO_LARGE", `el cuerpo supera ${maxBytes} bytes`, "body");
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
