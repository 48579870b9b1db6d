import { deriveKey } from "@/lib/crypto/derive-key";
import { secretsMatch } from "@/lib/crypto/secrets-match";

/**
 * The admin channel's bearer token: derived from SECRET_KEY, so only someone who can read the
 * server's secret (the operator on its machine, `npm run admin`) can ask it for a backup.
 */
export function backupToken(secretKey: Uint8Array): string {
  return deriveKey(secretKey, "admin-backup").toString("hex");
}

/** Constant-time: the comparison takes as long whatever the presented token shares with the real one. */
export function isBackupToken(presented: string, secretKey: Uint8Array): boolean {
  return secretsMatch(presented, backupToken(secretKey));
}
