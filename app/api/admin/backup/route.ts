import { withPublic } from "@/lib/http/with-api-auth";
import { readAuthorization } from "@/lib/request-reading/parse-input";
import { AppError } from "@/lib/errors";
import { adminChannelAllows, isAdminToken } from "@/lib/backup/admin-channel";
import { createBackupArchive } from "@/lib/backup/create-backup-archive";
import type { EmbeddedDatabase } from "@/lib/backup/snapshot-embedded-data";

export const dynamic = "force-dynamic";

/** The admin channel of `npm run admin -- backup`: loopback or ADMIN_ALLOW only, with the admin token (not SECRET_KEY's). */
export const POST = withPublic("json", async (request, { services }) => {
  // from elsewhere the channel does not exist
  if (!adminChannelAllows(request, services.config)) throw new AppError("NOT_FOUND");
  const token = readAuthorization(request, ["bearer"]);
  if (!token || !isAdminToken(token, services.config)) throw new AppError("UNAUTHORIZED");
  if (services.config.S3_BUCKET) throw new AppError("CONFLICT", "blobs are in S3 (S3_BUCKET): back up the bucket and the database separately (README, Backup and restore)");
  const database = services.databaseKind === "pglite" ? (services.db as unknown as { $client: EmbeddedDatabase }).$client : null;
  const archive = await createBackupArchive({ database, dataDir: services.config.dataDir, secretKeyFromEnvironment: !!services.config.SECRET_KEY });
  return new Response(archive, {
    headers: { "content-type": "application/gzip", "content-disposition": 'attachment; filename="firmaviva-backup.tar.gz"' },
  });
});
