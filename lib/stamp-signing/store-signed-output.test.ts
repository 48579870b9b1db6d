import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { storeSignedOutput } from "./store-signed-output";

let root: string;
let store: BlobStore;
let wholePuts: number;
const text = (value: string) => new TextEncoder().encode(value);
const stagedOf = (value: string) => {
  const staged = store.stageUpload!();
  staged.write(text(value));
  return staged;
};
const read = async (key: string) => new TextDecoder().decode((await store.get(key))!);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fv-output-"));
  const files = createFsBlobStore(root);
  wholePuts = 0;
  store = { ...files, put: (...args) => (wholePuts++, files.put(...args)) };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("storeSignedOutput", () => {
  it("writes only what follows the staged upload when the worker says the output begins with it", async () => {
    await storeSignedOutput({ key: "o/signed.pdf", pdf: text("%PDF upload|revision"), staged: stagedOf("%PDF upload"), uploadPrefixBytes: 11 }, store);
    expect(await read("o/signed.pdf")).toBe("%PDF upload|revision");
    expect(wholePuts).toBe(0);
  });

  it("writes the whole output when the upload is not its prefix (a rebuilt document), or not all of it was staged", async () => {
    const rebuilt = stagedOf("%PDF broken");
    await storeSignedOutput({ key: "o/a.pdf", pdf: text("%PDF rebuilt|rev"), staged: rebuilt, uploadPrefixBytes: undefined }, store);
    expect(await read("o/a.pdf")).toBe("%PDF rebuilt|rev");
    await storeSignedOutput({ key: "o/b.pdf", pdf: text("%PDF upload|rev"), staged: stagedOf("%PDF up"), uploadPrefixBytes: 11 }, store);
    expect(await read("o/b.pdf")).toBe("%PDF upload|rev");
    expect(wholePuts).toBe(2);
    await rebuilt.discard();
  });

  it("falls back to the whole output when the staged copy cannot be stored", async () => {
    const staged = stagedOf("%PDF upload");
    await staged.discard();
    await storeSignedOutput({ key: "o/c.pdf", pdf: text("%PDF upload|rev"), staged, uploadPrefixBytes: 11 }, store);
    expect(await read("o/c.pdf")).toBe("%PDF upload|rev");
    expect(wholePuts).toBe(1);
  });
});
