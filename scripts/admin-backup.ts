// `npm run admin -- backup FILE` and `restore FILE --data-dir DIR`. A backup goes through the running
// server, which owns the embedded database directory (a second process opening it would corrupt it).
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadConfig } from "@/lib/config/load-config";
import readline from "node:readline";
import { readAdminToken, rotateAdminToken } from "@/lib/backup/admin-channel";
import { encryptBackup } from "@/lib/backup/backup-encryption";
import { restoreBackupArchive } from "@/lib/backup/restore-backup-archive";
import { openDatabase } from "@/db/client";
import { count } from "drizzle-orm";
import { organizations } from "@/db/schema/organizations";

export class BackupError extends Error {}

/** BACKUP_PASSPHRASE, or else the first line of stdin (never an argument: ps and shell history show those). */
async function readPassphrase(): Promise<string> {
  if (process.env.BACKUP_PASSPHRASE) return process.env.BACKUP_PASSPHRASE;
  if (process.stdin.isTTY) process.stderr.write("backup passphrase: ");
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    if (line) return line;
  }
  throw new BackupError("missing passphrase: set BACKUP_PASSPHRASE or write it on stdin");
}

export async function rotateToken(): Promise<string> {
  const config = loadConfig();
  rotateAdminToken(config);
  return `a new admin token is in ${path.join(config.dataDir, "admin.token")}; the old one is refused from now on`;
}

export async function backup(file: string, url: string | undefined, encrypt = false): Promise<string> {
  const config = loadConfig();
  if (config.DATABASE_URL) throw new BackupError("DATABASE_URL is set: back up PostgreSQL with pg_dump, and the blob store with it (README, Backup and restore)");
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists; choose a new file name`);
  const passphrase = encrypt ? await readPassphrase() : undefined;
  const base = (url ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}/api/admin/backup`, { method: "POST", headers: { authorization: `Bearer ${readAdminToken(config)}` } });
  } catch {
    throw new BackupError(`no server answers at ${base}; the backup is made by the running server (start it, or pass --url)`);
  }
  if (!response.ok || !response.body) {
    const detail = await response.text().catch(() => "");
    throw new BackupError(`the server refused the backup (HTTP ${response.status}) ${detail.slice(0, 300)}`.trim());
  }
  // written under a temporary name: a cut-off download never looks like a finished backup
  const partial = `${file}.partial`;
  try {
    const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
    if (passphrase) await encryptBackup({ from: body, to: partial, passphrase });
    else await pipeline(body, fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`the backup stopped midway: ${(error as Error).message}`);
  }
  const held = passphrase ? "encrypted with the passphrase (without it the archive cannot be restored)" : "it holds the secret key: keep it as safe as the server, or use --encrypt";
  return `backup written to ${file} (${fs.statSync(file).size} bytes); ${held}`;
}

export async function restore(file: string, dataDir: string | undefined): Promise<string> {
  if (!dataDir) throw new BackupError("missing --data-dir DIR (an empty directory for the restored data)");
  const target = path.resolve(dataDir);
  const manifest = await restoreBackupArchive({ archive: file, dataDir: target, passphrase: readPassphrase });
  // open it once, as a server would (migrations included), and count what came back
  const database = await openDatabase({ dataDir: target });
  let restored: number;
  try {
    [{ restored }] = await database.db.select({ restored: count() }).from(organizations);
  } finally {
    await database.close();
  }
  const key = manifest.secretKey === "file" ? "the secret key came along" : "the server had SECRET_KEY in its environment: set the same SECRET_KEY for this directory";
  return `restored the backup of ${manifest.createdAt} into ${target}: ${restored} organization(s), ${manifest.blobs} blob file(s); ${key}. Start the server with DATA_DIR=${target}`;
}
