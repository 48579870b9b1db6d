import type { Sql } from "postgres";

/**
 * Reads one row of `blobs` in 1 MiB slices, each sent as base64 and decoded into the body as its
 * row arrives. postgres.js reads a bytea column as hex text in one message: a 50 MB blob came as a
 * 100 MB message, became a 100 MB string and was parsed, blocking the event loop for ~340 ms
 * (bench/results/2026-12-03-pg-blob-read.txt). Slices keep each block to one row's work, and base64
 * is 4/3 of the bytes, not 2.
 *
 * Binary `COPY ... TO STDOUT` would carry the bytes as they are, but postgres.js 3.4 can return a
 * connection to its pool with the socket paused after a COPY TO whose data and end arrive in one
 * read (porsager/postgres#1016; reproduced here with a 70 KB blob): the next query on it hangs.
 */
export const SLICE_BYTES = 1024 * 1024;

export async function readPgBlobInSlices(client: Sql, key: string): Promise<Buffer | null> {
  let body: Buffer | null = null;
  const written = new Set<number>();
  let fault: Error | null = null;
  // the body is stored uncompressed (migration 0020), so each substring reads only its own pages
  const query = client`
    select octet_length(b.body) as size, s.at, encode(substring(b.body from s.at + 1 for ${SLICE_BYTES}), 'base64') as slice
    from blobs b, generate_series(0, greatest(octet_length(b.body) - 1, 0), ${SLICE_BYTES}) as s(at)
    where b.key = ${key}`;
  await query.raw().forEach((row) => {
    // a throw here would reach postgres.js's socket handler: keep the first fault for after the query
    if (fault) return;
    const [size, at, slice] = row as unknown as (Buffer | null)[];
    if (!size || !at || !slice) fault = new Error(`blob ${key}: a slice row with a NULL field`);
    else fault = writeSlice(Number(size.toString("latin1")), Number(at.toString("latin1")), slice.toString("latin1"));
  });
  if (fault) throw fault;
  if (!body) return null;
  const slices = Math.max(1, Math.ceil((body as Buffer).byteLength / SLICE_BYTES));
  if (written.size !== slices) throw new Error(`blob ${key}: ${written.size} of ${slices} slices arrived`);
  return body;

  function writeSlice(size: number, at: number, slice: string): Error | null {
    // every byte of the body is written exactly once before it is returned (it starts uninitialized)
    body ??= Buffer.allocUnsafe(size);
    if (size !== body.byteLength || at % SLICE_BYTES !== 0 || at >= Math.max(size, 1) || written.has(at)) {
      return new Error(`blob ${key}: an unexpected slice (size ${size}, at ${at})`);
    }
    const length = body.write(slice, at, "base64");
    if (length !== Math.min(SLICE_BYTES, size - at)) return new Error(`blob ${key}: slice at ${at} decoded to ${length} bytes`);
    written.add(at);
    return null;
  }
}
