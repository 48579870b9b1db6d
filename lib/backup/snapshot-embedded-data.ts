import fs from "node:fs/promises";
import path from "node:path";
import { digestTree } from "./archive-members";
import { archiveEntries, type BackupManifest } from "./backup-manifest";

/** The part of PGlite the snapshot needs (the server's own instance, never a second one on the directory). */
export type EmbeddedDatabase = {
  transaction<T>(fn: (tx: { query: (sql: string) => Promise<unknown> }) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob>;
};

/**
 * Writes a consistent copy of the embedded data into `stagingDir` (on DATA_DIR's filesystem): the
 * database dump, the blob files and the secret key. It runs inside a PGlite transaction, which holds
 * the instance's transaction lock, so no other transaction is half done in the dump; the blobs are
 * hard-linked in the same moment (blob writes replace whole files by rename, so a link keeps the
 * version it saw). The database checkpoints first so the restored copy opens without replaying WAL.
 * The manifest names every member with its SHA-256.
 */
export async function snapshotEmbeddedData(
  { stagingDir }: { stagingDir: string },
  { database, dataDir, secretKeyFromEnvironment }: { database: EmbeddedDatabase; dataDir: string; secretKeyFromEnvironment: boolean },
): Promise<BackupManifest> {
  await fs.mkdir(stagingDir, { recursive: true, mode: 0o700 });
  const blobs = await database.transaction(async (tx) => {
    await tx.query("checkpoint");
    const dump = await database.dumpDataDir("none");
    await fs.writeFile(path.join(stagingDir, archiveEntries.database), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    return linkTree(path.join(dataDir, "blobs"), path.join(stagingDir, archiveEntries.blobs));
  });
  if (!secretKeyFromEnvironment) await fs.copyFile(path.join(dataDir, "secret.key"), path.join(stagingDir, archiveEntries.secretKey));
  const manifest: BackupManifest = {
    format: "firmaviva-backup-2",
    createdAt: new Date().toISOString(),
    database: "pglite",
    blobs,
    secretKey: secretKeyFromEnvironment ? "environment" : "file",
    files: await digestTree(stagingDir, archiveEntries.manifest),
  };
  await fs.writeFile(path.join(stagingDir, archiveEntries.manifest), JSON.stringify(manifest, null, 2) + "\n", { mode: 0o600 });
  return manifest;
}

/** Hard-links every finished file of `from` into `to`; a blob's temporary file (mid-write) is left out. */
async function linkTree(from: string, to: string): Promise<number> {
  let count = 0;
  await fs.mkdir(to, { recursive: true, mode: 0o700 });
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) count += await linkTree(source, path.join(to, entry.name));
    else if (entry.isFile() && !entry.name.endsWith(".tmp")) {
      await fs.link(source, path.join(to, entry.name)).then(
        () => count++,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error; // deleted since the listing: not part of the snapshot
        },
      );
    }
  }
  return count;
}
