import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { blobs } from "@/db/schema";
import { assertBlobKey, type BlobStore } from "./blob-store";

/** Blobs in a PostgreSQL table, so every server instance behind a load balancer sees the same files. */
export function createPgBlobStore(db: Db): BlobStore {
  return {
    async put(key, body, contentType) {
      assertBlobKey(key);
      const buffer = body;
      await db
        .insert(blobs)
        .values({ key, contentType, size: body.byteLength, body: buffer })
        .onConflictDoUpdate({ target: blobs.key, set: { contentType, size: body.byteLength, body: buffer } });
    },
    async get(key) {
      assertBlobKey(key);
      const [row] = await db.select({ body: blobs.body }).from(blobs).where(eq(blobs.key, key));
      return row ? new Uint8Array(row.body) : null;
    },
    async open(key) {
      // a bytea column arrives whole; the answer still streams it out without another copy
      assertBlobKey(key);
      const [row] = await db.select({ body: blobs.body }).from(blobs).where(eq(blobs.key, key));
      if (!row) return null;
      const bytes = new Uint8Array(row.body);
      const stream = new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(bytes), controller.close()) });
      return { stream, size: bytes.byteLength };
    },
    async delete(key) {
      assertBlobKey(key);
      await db.delete(blobs).where(eq(blobs.key, key));
    },
  };
}
