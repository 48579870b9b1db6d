/*
 * One row of `blobs (key, content_type, size, body)` in PostgreSQL's binary COPY format (the
 * "Binary Format" section of the COPY reference): a signature and header, then per row the field
 * count and each field as a 32-bit length and its bytes, then -1. postgres.js sends a bytea
 * parameter as hex text, which doubles a 50 MB upload into a 100 MB string on the event loop and
 * makes the server decode it; COPY in binary passes the bytes through as they are.
 */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

export function copyBinaryBlobRow(row: { key: string; contentType: string; body: Uint8Array }): Buffer[] {
  // flags (no OIDs) and the header extension's length, both zero
  const header = Buffer.alloc(8);
  const fieldCount = Buffer.alloc(2);
  fieldCount.writeInt16BE(4);
  const size = Buffer.alloc(8);
  size.writeInt32BE(4);
  size.writeInt32BE(row.body.byteLength, 4);
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  const body = lengthPrefixed(Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength));
  // three writes (everything before the body, the body, the end): each write is a message on the socket
  const before = Buffer.concat([SIGNATURE, header, fieldCount, ...lengthPrefixed(Buffer.from(row.key, "utf8")), ...lengthPrefixed(Buffer.from(row.contentType, "utf8")), size, body[0]]);
  return [before, body[1], trailer];
}

function lengthPrefixed(bytes: Buffer): Buffer[] {
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes.byteLength);
  return [length, bytes];
}
