import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { AppError } from "@/lib/errors";
import { snapshotEmbeddedData, type EmbeddedDatabase } from "./snapshot-embedded-data";

type BackupDeps = { database: EmbeddedDatabase | null; dataDir: string; secretKeyFromEnvironment: boolean };

/**
 * A gzipped tar of the embedded data, made by the running server (the owner of the PGlite
 * directory). The snapshot is taken first; the archive then streams from it, and the snapshot is
 * removed when the stream ends or the client goes away.
 */
export async function createBackupArchive(deps: BackupDeps): Promise<ReadableStream<Uint8Array>> {
  if (!deps.database) throw new AppError("CONFLICT", "the database is PostgreSQL (DATABASE_URL): back it up with pg_dump and the blob store (README, Backup and restore)");
  const stagingDir = path.join(deps.dataDir, `backup-${crypto.randomUUID()}.tmp`);
  const removeStaging = () => fs.rmSync(stagingDir, { recursive: true, force: true });
  try {
    await snapshotEmbeddedData({ stagingDir }, { database: deps.database, dataDir: deps.dataDir, secretKeyFromEnvironment: deps.secretKeyFromEnvironment });
  } catch (error) {
    removeStaging();
    throw error;
  }
  const tar = spawn("tar", ["-czf", "-", "-C", stagingDir, "."], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  tar.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  const done = new Promise<void>((resolve) => tar.on("close", () => resolve()));
  void done.then(removeStaging);
  const body = Readable.toWeb(tar.stdout) as ReadableStream<Uint8Array>;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done: ended } = await reader.read();
      if (!ended) return controller.enqueue(value);
      await done;
      // a tar that failed midway must not look like a complete archive to the client
      if (tar.exitCode !== 0) controller.error(new Error(`tar failed (${tar.exitCode}): ${errors}`));
      else controller.close();
    },
    cancel() {
      tar.kill("SIGKILL");
    },
  });
}
