import { eq, sql } from "drizzle-orm";
import type { Sql } from "postgres";
import type { Writable } from "node:stream";
import type { Db } from "@/db/client";
import { blobs } from "@/db/schema";
import { assertBlobKey, type BlobStore } from "./blob-store";
import { copyBinaryBlobRow } from "./copy-binary-blob-row";
import { readPgBlobInSlices } from "./read-pg-blob-in-slices";

/**
 * Blobs from this size on are written by COPY. Below it the hex text costs little, and a COPY's
 * small socket writes (postgres.js leaves Nagle's algorithm on) meet delayed ACKs: a 130 KB signed
 * PDF took ~90 ms by COPY against ~5 ms as a parameter.
 */
export const COPY_FROM_BYTES = 1024 * 1024;

/**
 * Blobs in a PostgreSQL table, so every server instance behind a load balancer sees the same files.
 * With the postgres.js client at hand a large blob is written by COPY in binary
 * (copy-binary-blob-row.ts); the column is stored without compression (migration 0020): PDFs and
 * images are compressed already.
 */
export function createPgBlobStore({ db, postgres: client }: { db: Db; postgres?: Sql }): BlobStore {
  return {
    async put(key, body, contentType) {
      assertBlobKey(key);
      if (!client || body.byteLength < COPY_FROM_BYTES) {
        // the row's own values on conflict (`excluded`): the body is sent and decoded once, not twice
        await db
          .insert(blobs)
          .values({ key, contentType, size: body.byteLength, body: client ? base64Parameter(body) : body })
          .onConflictDoUpdate({ target: blobs.key, set: { contentType: sql`excluded.content_type`, size: sql`excluded.size`, body: sql`excluded.body` } });
        return;
      }
      await client.begin(async (tx) => {
        // COPY cannot upsert: writers of one key take turns, each replacing the row whole
        await tx`select pg_advisory_xact_lock(hashtext(${`blob:${key}`}))`;
        await tx`delete from blobs where key = ${key}`;
        const copy = tx`copy blobs (key, content_type, size, body) from stdin (format binary)`;
        const refused = refusalOf(copy);
        const stream = await copy.writable();
        await Promise.race([writeAll(stream, copyBinaryBlobRow({ key, contentType, body })), refused]);
      });
    },
    async get(key) {
      assertBlobKey(key);
      return read(key);
    },
    async open(key) {
      // read whole, so a slow download never holds a database connection; streamed out without another copy
      assertBlobKey(key);
      const bytes = await read(key);
      if (!bytes) return null;
      const stream = new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(bytes), controller.close()) });
      return { stream, size: bytes.byteLength };
    },
    async delete(key) {
      assertBlobKey(key);
      await db.delete(blobs).where(eq(blobs.key, key));
    },
  };

  async function read(key: string): Promise<Uint8Array | null> {
    if (client) return readPgBlobInSlices(client, key);
    const [row] = await db.select({ body: blobs.body }).from(blobs).where(eq(blobs.key, key));
    return row ? new Uint8Array(row.body) : null;
  }
}

/**
 * A bytea parameter as base64 text that the server decodes. postgres.js sends bytes as hex text after
 * copying them (`Buffer.from`): twice their size to build, send and parse; base64 is 4/3. A 130 KB
 * signed PDF took 4-6.6 ms of the event loop as hex, 2.5 as base64 (bench/results/2026-12-01-pg-small-blob-put.txt).
 */
function base64Parameter(body: Uint8Array) {
  return sql`decode(${Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("base64")}, 'base64')`;
}

/**
 * Rejects when the server refuses the COPY or the connection fails. postgres.js settles the COPY's
 * query when the stream opens and, when the refusal comes after the stream ended (a row it cannot
 * store), reports it only to that query's `reject`, never to the stream: without this the put
 * would wait forever (pinned by pg-blob-store.test.ts).
 */
function refusalOf(query: object): Promise<never> {
  const settled = query as { reject: (error: unknown) => void };
  const reject = settled.reject;
  return new Promise<never>((_, fail) => {
    settled.reject = (error) => {
      reject(error);
      fail(error);
    };
  });
}

/** Writes the parts and ends the COPY; settles when the server has taken the whole row (or refused it). */
function writeAll(stream: Writable, parts: Buffer[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once("error", reject);
    stream.once("finish", () => resolve());
    for (const part of parts) stream.write(part);
    stream.end();
  });
}
