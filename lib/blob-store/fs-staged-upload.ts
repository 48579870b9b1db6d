import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import type { StagedUpload } from "./blob-store";

/** Where uploads are staged, beside the blobs (one file system, so a staged file is renamed into place). */
export const STAGING_DIR = ".staging";

/** A staged file this old belongs to no request alive (a crash, a kill): swept when a store starts. */
export const STALE_STAGED_MS = 60 * 60 * 1000;

/**
 * An upload staged as a file under `<root>/.staging`, written as its pieces arrive and renamed into
 * place by `store`. A failed write is kept and reported by `store`, which the caller answers with a
 * plain put of the whole output.
 */
export function stageUploadFile(root: string, fileOf: (key: string) => string): StagedUpload {
  const dir = path.join(root, STAGING_DIR);
  // once per staging, ~20 us: cheaper than finding out after a failed open
  fs.mkdirSync(dir, { recursive: true });
  // ".tmp": a backup leaves it out as it does a blob mid-write (snapshot-embedded-data.ts)
  const temp = path.join(dir, `${crypto.randomUUID()}.tmp`);
  const out = fs.createWriteStream(temp);
  let failure: unknown;
  // an error (disk full) is reported by store; without a listener it would crash the process
  out.on("error", (error) => (failure ??= error));
  let size = 0;
  let settled = false;

  return {
    write(chunk) {
      if (settled || failure) return;
      // the chunk is held until written: the upload arrives no faster than the disk takes it
      out.write(chunk);
      size += chunk.length;
    },
    get size() {
      return size;
    },
    async store(key, tail) {
      if (settled) throw new Error("this staged upload was already stored or discarded");
      settled = true;
      try {
        const file = fileOf(key);
        if (failure) throw failure;
        if (tail.length > 0) out.write(tail);
        out.end();
        await finished(out);
        if (failure) throw failure;
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.rename(temp, file);
      } catch (error) {
        await removeStaged(out, temp);
        throw error;
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      await removeStaged(out, temp);
    },
  };
}

/** Closes the stream first: a file still being opened would otherwise appear after its removal. */
async function removeStaged(out: fs.WriteStream, temp: string): Promise<void> {
  if (!out.closed) {
    const closed = once(out, "close").catch(() => undefined);
    out.destroy();
    await closed;
  }
  await fs.promises.rm(temp, { force: true });
}

/** Removes staged files older than STALE_STAGED_MS; best effort, never in the way of a request. */
export async function sweepStaleStagedUploads(root: string, now = Date.now()): Promise<number> {
  const dir = path.join(root, STAGING_DIR);
  let removed = 0;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat || now - stat.mtimeMs < STALE_STAGED_MS) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
}
