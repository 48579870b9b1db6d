import { bytesResponseBody } from "./bytes-response-body";

/**
 * A PDF answered whole or by one byte range (pdf.js asks for ranges, so the first page of a long
 * file shows before the rest arrives). Private: the bytes belong to one signer session.
 */
export function pdfRangeResponse(request: Request, bytes: Uint8Array, options: { filename: string; download: boolean }): Response {
  const headers: Record<string, string> = {
    "content-type": "application/pdf",
    "accept-ranges": "bytes",
    "cache-control": "private, no-store",
    "content-disposition": `${options.download ? "attachment" : "inline"}; filename="${options.filename.replace(/[^\w.\- ]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(options.filename)}`,
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("range") ?? "");
  if (!range || (!range[1] && !range[2])) return new Response(bytesResponseBody(bytes), { headers: { ...headers, "content-length": String(bytes.length) } });
  const size = bytes.length;
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size || start > end) return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  return new Response(bytesResponseBody(bytes.subarray(start, end + 1)), {
    status: 206,
    headers: { ...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": String(end - start + 1) },
  });
}
