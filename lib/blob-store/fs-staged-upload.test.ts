import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFsBlobStore } from "./fs-blob-store";
import { STAGING_DIR, STALE_STAGED_MS, sweepStaleStagedUploads } from "./fs-staged-upload";
import type { BlobStore } from "./blob-store";

let root: string;
let store: BlobStore;
const staged = () => fs.readdirSync(path.join(root, STAGING_DIR));
const bytes = (...values: number[]) => new Uint8Array(values);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fv-staged-"));
  store = createFsBlobStore(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("a staged upload in the file store", () => {
  it("stores the pieces in order followed by the tail, as put would their concatenation, and leaves no staged file", async () => {
    const upload = store.stageUpload!();
    upload.write(bytes(1, 2, 3));
    upload.write(bytes(4));
    upload.write(new Uint8Array(200_000).fill(9));
    expect(upload.size).toBe(200_004);
    await upload.store("org/stamp/doc/signed.pdf", bytes(7, 8));
    const stored = (await store.get("org/stamp/doc/signed.pdf"))!;
    expect(stored.length).toBe(200_006);
    expect(Array.from(stored.subarray(0, 5))).toEqual([1, 2, 3, 4, 9]);
    expect(Array.from(stored.subarray(-3))).toEqual([9, 7, 8]);
    expect(staged()).toEqual([]);
    await upload.discard();
    expect(await store.get("org/stamp/doc/signed.pdf")).not.toBeNull();
  });

  it("is stored once: a second store is refused", async () => {
    const upload = store.stageUpload!();
    upload.write(bytes(1));
    await upload.store("a/one.pdf", bytes());
    await expect(upload.store("a/two.pdf", bytes())).rejects.toThrow(/already stored/);
    expect(await store.get("a/two.pdf")).toBeNull();
  });

  it("discards what was staged, at once or after its writes, and then stores nothing", async () => {
    const early = store.stageUpload!();
    await early.discard();
    const late = store.stageUpload!();
    late.write(new Uint8Array(100_000));
    await late.discard();
    await late.discard();
    expect(staged()).toEqual([]);
    await expect(late.store("a/late.pdf", bytes())).rejects.toThrow(/already stored or discarded/);
  });

  it("refuses a key that cannot be a blob, and removes the staged file", async () => {
    const upload = store.stageUpload!();
    upload.write(bytes(1, 2));
    // opened and written before the refused store, so there is a file to remove
    await expect.poll(() => staged().length).toBe(1);
    await expect(upload.store("../outside", bytes())).rejects.toThrow(/invalid blob key/);
    expect(staged()).toEqual([]);
  });

  it("reports a write the disk refused, and removes the file", async () => {
    const upload = store.stageUpload!();
    // the staging directory removed before the file is opened: the open fails (modes would not stop root)
    fs.rmSync(path.join(root, STAGING_DIR), { recursive: true });
    upload.write(bytes(1, 2));
    await expect(upload.store("a/never.pdf", bytes(3))).rejects.toThrow(/ENOENT/);
    expect(await store.get("a/never.pdf")).toBeNull();
  });

  it("sweeps staged files older than an hour, not younger ones", async () => {
    const dir = path.join(root, STAGING_DIR);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "old.tmp"), "x");
    fs.writeFileSync(path.join(dir, "young.tmp"), "x");
    const past = new Date(Date.now() - STALE_STAGED_MS - 60_000);
    fs.utimesSync(path.join(dir, "old.tmp"), past, past);
    expect(await sweepStaleStagedUploads(root)).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(["young.tmp"]);
  });
});
