/** next.config.js's `serverActions.bodySizeLimit` ("1mb", which Next reads as 1024 × 1024 bytes). */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A server action POST whose declared body is over the limit gets a 413 before Next reads it: Next
 * refuses it too, but as its own 500. A body without Content-Length (chunked) is left to Next's limit.
 */
export function refuseOversizedServerAction(request: Request): Response | null {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (!(declared > SERVER_ACTION_BODY_LIMIT_BYTES)) return null;
  return new Response("El formulario enviado supera el límite de 1 MB. Los archivos grandes se suben desde su propia página.", {
    status: 413,
    // no "connection: close": Next's proxy reads the body into its clone either way, and a client
    // still writing would see the close instead of this answer
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
