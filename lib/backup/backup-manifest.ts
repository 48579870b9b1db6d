import { z } from "zod";

/** `manifest.json` at the root of a backup archive: what the archive holds, checked before a restore. */
export const ZBackupManifest = z.object({
  // format 2 added the digests; a format-1 archive carries no integrity check and is refused
  format: z.literal("firmaviva-backup-2"),
  createdAt: z.string(),
  database: z.literal("pglite"),
  blobs: z.number().int().min(0),
  /** "file": secret.key is in the archive; "environment": the server's SECRET_KEY came from the environment and must be set again. */
  secretKey: z.enum(["file", "environment"]),
  /** SHA-256 (hex) of every other member, by its path in the archive; restore checks each one. */
  files: z.record(z.string().max(4096), z.string().regex(/^[0-9a-f]{64}$/)),
});

export type BackupManifest = z.infer<typeof ZBackupManifest>;

/** Names inside the archive. */
export const archiveEntries = { manifest: "manifest.json", database: "pglite.tar", blobs: "blobs", secretKey: "secret.key" } as const;
