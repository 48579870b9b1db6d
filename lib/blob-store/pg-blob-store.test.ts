import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { blobs } from "@/db/schema";
import { startPostgresCluster, type PostgresCluster } from "@/e2e/fixtures/postgres";
import type { BlobStore } from "./blob-store";
import { COPY_FROM_BYTES, createPgBlobStore } from "./pg-blob-store";
import { SLICE_BYTES } from "./read-pg-blob-in-slices";

let cluster: PostgresCluster;
let database: Awaited<ReturnType<typeof openDatabase>>;
let store: BlobStore;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  database = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: "unused" });
  store = createPgBlobStore(database);
}, 120_000);
afterAll(async () => {
  await database?.close();
  cluster?.stop();
});

// above the size from which blobs go by COPY
const everyByte = () => {
  const body = new Uint8Array(COPY_FROM_BYTES + 300_000);
  for (let i = 0; i < body.length; i++) body[i] = i % 256;
  return body;
};

describe("PostgreSQL blob store written by binary COPY (against a real cluster)", () => {
  it("keeps every byte (zeros included), the size and a UTF-8 content type", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    const body = everyByte();
    await store.put(key, body, "application/pdf; name=año.pdf");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(body))).toBe(true);
    const [row] = await database.db.select({ size: blobs.size, contentType: blobs.contentType }).from(blobs).where(eq(blobs.key, key));
    expect(row).toEqual({ size: body.length, contentType: "application/pdf; name=año.pdf" });
    const opened = await store.open(key);
    expect(opened?.size).toBe(body.length);
  });

  it("replaces a blob written before, and parallel writers of one key leave one whole row", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    await store.put(key, new Uint8Array([1, 2, 3]), "application/pdf");
    const bodies = Array.from({ length: 8 }, (_, i) => new Uint8Array(crypto.randomBytes(i % 2 ? COPY_FROM_BYTES + 1000 : 50_000)));
    await Promise.all(bodies.map((body) => store.put(key, body, "application/pdf")));
    const stored = Buffer.from((await store.get(key))!);
    expect(bodies.some((body) => stored.equals(Buffer.from(body)))).toBe(true);
    const [{ count }] = await database.db.select({ count: sql<number>`count(*)::int` }).from(blobs).where(eq(blobs.key, key));
    expect(count).toBe(1);
  });

  it("a row the server refuses fails the put and keeps the blob that was there", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    const original = new Uint8Array(crypto.randomBytes(1000));
    await store.put(key, original, "application/pdf");
    // a NUL byte is not valid in a text column: the COPY is refused inside the transaction
    await expect(store.put(key, everyByte(), "application/pdf\0")).rejects.toThrow();
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(original))).toBe(true);
  });

  it("small blobs go as a parameter, and both paths read back the same", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    const small = new Uint8Array(crypto.randomBytes(130_000));
    await store.put(key, small, "application/pdf");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(small))).toBe(true);
    await store.put(key, everyByte(), "application/pdf");
    expect((await store.get(key))!.length).toBe(everyByte().length);
    await store.put(key, small, "application/pdf");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(small))).toBe(true);
  });

  it("a small blob (sent as base64) keeps every byte of a view into a larger buffer, and one written again takes the new body, size and type", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    const whole = new Uint8Array(5000);
    for (let i = 0; i < whole.length; i++) whole[i] = (i * 7) % 256;
    // only the view's bytes, not the buffer around it
    const view = whole.subarray(1000, 3000);
    await store.put(key, view, "application/pdf");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(view))).toBe(true);
    const next = new Uint8Array(crypto.randomBytes(700));
    await store.put(key, next, "image/png");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(next))).toBe(true);
    const [row] = await database.db.select({ size: blobs.size, contentType: blobs.contentType }).from(blobs).where(eq(blobs.key, key));
    expect(row).toEqual({ size: 700, contentType: "image/png" });
  });

  it("reads in base64 slices: every byte at each slice boundary, through get and open; a missing key is null", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    for (const size of [0, 1, 57, SLICE_BYTES - 1, SLICE_BYTES, SLICE_BYTES + 1, 3 * SLICE_BYTES + 12_345]) {
      const body = new Uint8Array(crypto.randomBytes(size));
      await store.put(key, body, "application/pdf");
      expect(Buffer.from((await store.get(key))!).equals(Buffer.from(body)), `${size} bytes`).toBe(true);
      const opened = await store.open(key);
      expect(opened!.size).toBe(size);
      expect(Buffer.from(await new Response(opened!.stream).arrayBuffer()).equals(Buffer.from(body)), `${size} bytes streamed`).toBe(true);
    }
    const missing = `org/stamp/${crypto.randomUUID()}.pdf`;
    expect(await store.get(missing)).toBeNull();
    expect(await store.open(missing)).toBeNull();
  });

  it("reads blobs the former parameter path wrote, and the column is stored uncompressed", async () => {
    const key = `org/stamp/${crypto.randomUUID()}.pdf`;
    const body = everyByte();
    await createPgBlobStore({ db: database.db }).put(key, body, "application/pdf");
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(body))).toBe(true);
    const [{ storage }] = await database.postgres!<{ storage: string }[]>`select attstorage as storage from pg_attribute where attrelid = 'blobs'::regclass and attname = 'body'`;
    expect(storage).toBe("e");
  });
});
