import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { lockDataDir } from "@/db/lock-data-dir";
import { checkArchiveMembers, verifyDigests } from "./archive-members";
import { archiveEntries, ZBackupManifest, type BackupManifest } from "./backup-manifest";
import { decryptBackup, isEncryptedBackup } from "./backup-encryption";

/**
 * Unpacks a backup archive into a new DATA_DIR: the embedded database, the blob files and the secret
 * key. The directory must be empty (or not exist yet) so nothing is ever mixed with other data; it
 * is locked while the restore runs, so a server cannot open it half-restored. Links, device files and
 * names outside the target are refused before extraction; every member must match the manifest's
 * SHA-256. An encrypted archive is decrypted first (a wrong passphrase fails on the GCM tag).
 */
export async function restoreBackupArchive({ archive, dataDir, passphrase }: { archive: string; dataDir: string; passphrase?: () => Promise<string> }): Promise<BackupManifest> {
  if (!fs.existsSync(archive)) throw new AppError("NOT_FOUND", `${archive} does not exist`);
  const encrypted = isEncryptedBackup(archive);
  if (encrypted && !passphrase) throw new AppError("VALIDATION", "the backup is encrypted: give its passphrase (BACKUP_PASSPHRASE or stdin)");
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (fs.readdirSync(dataDir).length > 0) throw new AppError("CONFLICT", `${dataDir} is not empty; restore into an empty directory`);
  const release = lockDataDir(dataDir);
  const staging = path.join(dataDir, "restore.tmp");
  try {
    fs.mkdirSync(staging, { mode: 0o700 });
    const members = path.join(staging, "members");
    fs.mkdirSync(members, { mode: 0o700 });
    let plain = path.resolve(archive);
    if (encrypted) {
      plain = path.join(staging, "archive.tar.gz");
      await decryptBackup({ from: path.resolve(archive), to: plain, passphrase: await passphrase!() });
    }
    // nothing is extracted before every member is known to be a plain file or directory inside the target
    checkArchiveMembers(plain, "the archive");
    untar(["-xzf", plain, "-C", members, "--no-same-owner", "--no-same-permissions"], "the archive cannot be read (damaged, or not a FirmaViva backup)");
    const manifest = readManifest(path.join(members, archiveEntries.manifest));
    await verifyDigests(members, manifest.files, archiveEntries.manifest);
    const pglite = path.join(dataDir, "pglite");
    fs.mkdirSync(pglite, { mode: 0o700 });
    checkArchiveMembers(path.join(members, archiveEntries.database), "the database dump in the archive", { leadingSlash: "strip" });
    untar(["-xf", path.join(members, archiveEntries.database), "-C", pglite, "--no-same-owner", "--no-same-permissions"], "the database dump in the archive cannot be read");
    // the dump carries the running server's pid file; the restored cluster belongs to no process yet
    fs.rmSync(path.join(pglite, "postmaster.pid"), { force: true });
    const blobs = path.join(members, archiveEntries.blobs);
    if (fs.existsSync(blobs)) fs.renameSync(blobs, path.join(dataDir, "blobs"));
    if (manifest.secretKey === "file") {
      fs.renameSync(path.join(members, archiveEntries.secretKey), path.join(dataDir, "secret.key"));
      fs.chmodSync(path.join(dataDir, "secret.key"), 0o600);
    }
    fs.rmSync(staging, { recursive: true, force: true });
    return manifest;
  } catch (error) {
    // leave the directory empty again, so a second try after fixing the cause starts clean
    release();
    for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
}

function untar(args: string[], failure: string) {
  const result = spawnSync("tar", args, { encoding: "utf8" });
  if (result.error) throw new AppError("INTERNAL", `tar is not available: ${result.error.message}`);
  if (result.status !== 0) throw new AppError("VALIDATION", `${failure}: ${result.stderr.trim().slice(0, 300)}`);
}

function readManifest(file: string): BackupManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    throw new AppError("VALIDATION", "the archive has no readable manifest.json: not a FirmaViva backup");
  }
  const parsed = ZBackupManifest.safeParse(raw);
  if (!parsed.success) throw new AppError("VALIDATION", "manifest.json is not a FirmaViva backup of a known format");
  return parsed.data;
}
