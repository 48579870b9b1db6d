/** How much of a body a reader may drop, and for how long, before it leaves the rest unread. */
export type DrainLimits = { maxBytes: number; maxMs: number };

/**
 * Reads and drops what is left of a request's body, so that an answer given before the body was
 * read (a refused token, a spent rate budget) reaches the client. Node closes the connection once
 * it has written the answer to a client that sent `Connection: close`; bytes still unread at that
 * moment turn the close into a reset, and a client still writing its upload sees EPIPE instead of
 * the answer. Bounded in bytes and in time: past either, the rest is left unread, as before.
 */
export async function discardUnreadBody(request: Request, limits: DrainLimits): Promise<void> {
  // a body another reader holds (locked) is that reader's to finish, even if it has not read yet
  if (!request.body || request.bodyUsed || request.body.locked) return;
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxBytes) return;
  await drainReader(request.body.getReader(), limits);
}

/**
 * Reads and drops the rest of a stream a reader already holds, for the same reason: the reader
 * that refused a body past its limit (413) drains a bounded tail of it before the answer goes out.
 */
export async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, limits: DrainLimits): Promise<void> {
  // a pending read ends (done) when the reader is cancelled: a client that stalls costs maxMs at most
  const deadline = setTimeout(() => void reader.cancel().catch(() => undefined), limits.maxMs);
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > limits.maxBytes) return void (await reader.cancel());
    }
  } catch {
    // the client went away: there is no one left to answer
  } finally {
    clearTimeout(deadline);
  }
}
