import { z } from "zod";

/** `manifest.json` at the root of a backup archive: what the archive holds, checked before a restore. */
export const ZBackupManifest = z.object({
  format: z.literal("firmaviva-backup-1"),
  createdAt: z.string(),
  database: z.literal("pglite"),
  blobs: z.number().int().min(0),
  /** "file": secret.key is in the archive; "environment": the server's SECRET_KEY came from the environment and must be set again. */
  secretKey: z.enum(["file", "environment"]),
});

export type BackupManifest = z.infer<typeof ZBackupManifest>;

/** Names inside the archive. */
export const archiveEntries = { manifest: "manifest.json", database: "pglite.tar", blobs: "blobs", secretKey: "secret.key" } as const;
