import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, TEST_BUCKET } from "@/e2e/fixtures/s3-server";
import type { BlobStore } from "./blob-store";
import { createS3BlobStore, readAll } from "./s3-blob-store";

let s3: Awaited<ReturnType<typeof startS3Server>>;
let store: BlobStore;

beforeAll(async () => {
  s3 = await startS3Server();
  store = createS3BlobStore({
    endpoint: s3.env.S3_ENDPOINT,
    bucket: TEST_BUCKET,
    region: "us-east-1",
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
    prefix: "unit",
  });
});
afterAll(async () => s3?.stop());

describe("S3 blob store (against a local S3-protocol server)", () => {
  it("stores, reads, streams and deletes a blob", async () => {
    const key = `org/stamp/${crypto.randomUUID()}/input.pdf`;
    const body = new Uint8Array(crypto.randomBytes(1000));
    await store.put(key, body, "application/pdf");
    expect(await store.get(key)).toEqual(body);
    const opened = await store.open(key);
    expect(opened!.size).toBe(1000);
    expect(await readAll(opened!)).toEqual(body);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    expect(await store.open(key)).toBeNull();
    await store.delete(key); // deleting twice is fine
  });

  it("round-trips a 40 MB document byte for byte, streamed out in chunks", async () => {
    const key = `org/process/${crypto.randomUUID()}.pdf`;
    const body = new Uint8Array(crypto.randomBytes(40 * 1024 * 1024));
    await store.put(key, body, "application/pdf");
    const opened = await store.open(key);
    const reader = opened!.stream.getReader();
    let chunks = 0;
    const hash = crypto.createHash("sha256");
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks++;
      hash.update(next.value);
    }
    expect(chunks).toBeGreaterThan(1);
    expect(hash.digest("hex")).toBe(crypto.createHash("sha256").update(body).digest("hex"));
    expect(Buffer.from((await store.get(key))!).equals(Buffer.from(body))).toBe(true);
  }, 120_000);

  it("refuses keys that are not plain paths", async () => {
    await expect(store.put("../escape", new Uint8Array(1), "x")).rejects.toThrow(/invalid blob key/);
  });

  it("answers a server error instead of pretending the blob is missing", async () => {
    const wrong = createS3BlobStore({ endpoint: s3.env.S3_ENDPOINT, bucket: "no-such-bucket", region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true });
    await expect(wrong.get("a/b")).rejects.toThrow();
  });
});
