import { describe, expect, it } from "vitest";
import { recordStages, timed } from "@/lib/runtime/request-timing";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { timeBlobStore } from "./time-blob-store";

function memoryStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    put: async (key, body) => void blobs.set(key, body),
    get: async (key) => blobs.get(key) ?? null,
    open: async () => null,
    delete: async (key) => void blobs.delete(key),
  };
}

describe("timeBlobStore", () => {
  it("passes every call through to the store", async () => {
    const store = timeBlobStore(memoryStore());
    await store.put("a/b.pdf", new Uint8Array([1, 2]), "application/pdf");
    expect(await store.get("a/b.pdf")).toEqual(new Uint8Array([1, 2]));
    await store.delete("a/b.pdf");
    expect(await store.get("a/b.pdf")).toBeNull();
  });

  it("charges its calls to the blob stage of a profiled request, apart from the step that made them", async () => {
    const store = timeBlobStore(memoryStore());
    const { stages } = await recordStages(() => timed("produce", async () => {
      await store.put("k", new Uint8Array(8), "application/octet-stream");
      return store.get("k");
    }));
    expect(stages.blob).toBeGreaterThanOrEqual(0);
    expect(Object.keys(stages).sort()).toEqual(["blob", "produce"]);
  });

  it("records nothing for the unwrapped store", async () => {
    const { stages } = await recordStages(() => timed("produce", () => memoryStore().get("k")));
    expect(Object.keys(stages)).toEqual(["produce"]);
  });
});
