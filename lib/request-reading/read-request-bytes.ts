import { AppError } from "@/lib/errors";
import { drainReader, type DrainLimits } from "./discard-unread-body";

/**
 * What a refused body may still send after its limit: read and dropped (never kept), so that a
 * client writing a few megabytes too many gets the 413 rather than a reset (EPIPE) mid-upload.
 * Past this tail, or once the time is spent, the rest is left unread and the connection closes.
 */
export const REFUSED_BODY_TAIL: DrainLimits = { maxBytes: 8 * 1024 * 1024, maxMs: 5_000 };

/** Reads a small binary body, stopping as soon as it passes the limit. */
export async function readRequestBytes(request: Request, maxBytes: number, refusedTail: DrainLimits = REFUSED_BODY_TAIL): Promise<Uint8Array> {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `el cuerpo supera ${maxBytes} bytes`, "body");
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    // a declared length within the tail is drained too; a larger one is refused without reading
    if (request.body && declared <= maxBytes + refusedTail.maxBytes) await drainReader(request.body.getReader(), { ...refusedTail, maxBytes: declared });
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await drainReader(reader, refusedTail);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
