import fs from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { Readable } from "node:stream";
import { assertBlobKey, type BlobStore } from "./blob-store";
import { stageUploadFile, sweepStaleStagedUploads } from "./fs-staged-upload";

/**
 * Files under DATA_DIR/blobs: the embedded default. Writes go through a temp file so readers never
 * see half a blob. Large uploads may be staged as they arrive (fs-staged-upload.ts); staged files
 * left by a process that died are swept here.
 */
export function createFsBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, key);
  };
  void sweepStaleStagedUploads(root).catch(() => undefined);
  return {
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${crypto.randomUUID()}.tmp`;
      await fs.writeFile(temp, body);
      await fs.rename(temp, file);
    },
    async get(key) {
      try {
        return new Uint8Array(await fs.readFile(fileOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async open(key) {
      const file = fileOf(key);
      try {
        const handle = await fs.open(file);
        const { size } = await handle.stat();
        return { stream: Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>, size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    stageUpload: () => stageUploadFile(root, fileOf),
  };
}
