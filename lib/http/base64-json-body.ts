/** Input bytes per piece: a multiple of 3, so the pieces' Base64 joins with no padding inside (1 MiB of text each). */
const PIECE_BYTES = 3 * 256 * 1024;
const CLOSING = Buffer.from('"}');

/**
 * A JSON object's body with `bytes` as the Base64 string of its last member, made one piece at a
 * time as the answer is read. Built whole (a 67 MB string, JSON.stringify scanning it, its UTF-8
 * copy), a 50 MB signed PDF's answer held the event loop 1.2-1.5 s on this project's 2-core VM, and
 * no other request was answered meanwhile; in pieces, the longest wait of a health probe beside it
 * was 76-116 ms (bench/results/2026-12-01-json-answer-in-pieces.txt).
 */
export function base64JsonBody(fields: Record<string, unknown>, name: string, bytes: Uint8Array): ReadableStream<Uint8Array> {
  const opening = JSON.stringify(fields);
  if (opening === "{}") throw new Error("base64JsonBody needs at least one other member");
  // the object without its closing brace, then the Base64 member, then the closing
  const head = Buffer.from(`${opening.slice(0, -1)},${JSON.stringify(name)}:"`, "utf8");
  let offset = 0;
  let headSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // a reader that never waits (a fast client) would otherwise take every piece in one turn of the event loop
        if (headSent) await new Promise((resolve) => setImmediate(resolve));
        const piece = bytes.subarray(offset, offset + PIECE_BYTES);
        offset += piece.byteLength;
        const text = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString("base64");
        const last = offset >= bytes.byteLength;
        // Base64 is ASCII: latin1 writes it byte for byte, without UTF-8's encoder
        const parts = [...(headSent ? [] : [head]), Buffer.from(text, "latin1"), ...(last ? [CLOSING] : [])];
        headSent = true;
        controller.enqueue(parts.length === 1 ? parts[0] : Buffer.concat(parts));
        if (last) controller.close();
      },
    },
    // nothing is made ahead of the reader: a slow client holds one piece, not the whole answer
    { highWaterMark: 0 },
  );
}
