import path from "node:path";
import { config, type AppConfig } from "@/lib/config";
import { restrictTree } from "@/lib/config/load-config";
import { openDatabase, type Db } from "@/db/client";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createPgBlobStore } from "@/lib/blob-store/pg-blob-store";
import { createS3BlobStore } from "@/lib/blob-store/s3-blob-store";
import { processSingletonLoad } from "@/lib/process-wide/singleton";
import { timeBlobStore } from "./time-blob-store";
import { requestTimingEnabled, timed } from "./request-timing";

export type Services = {
  config: AppConfig;
  db: Db;
  databaseKind: "pglite" | "postgres";
  blobs: BlobStore;
  close: () => Promise<void>;
};

async function createServices(): Promise<Services> {
  const appConfig = config();
  const timeQueries = requestTimingEnabled() ? <T>(work: () => Promise<T>) => timed("database", work) : undefined;
  const database = await openDatabase({ databaseUrl: appConfig.DATABASE_URL, dataDir: appConfig.dataDir, timeQueries });
  // PGlite unpacks its initial files world-readable; from here on postgres creates them 0600 itself
  if (database.kind === "pglite") restrictTree(appConfig.dataDir);
  const blobs = appConfig.S3_BUCKET
    ? createS3BlobStore({
        bucket: appConfig.S3_BUCKET,
        endpoint: appConfig.S3_ENDPOINT,
        region: appConfig.S3_REGION,
        accessKeyId: appConfig.S3_ACCESS_KEY_ID,
        secretAccessKey: appConfig.S3_SECRET_ACCESS_KEY,
        // MinIO and most self-hosted servers want path-style URLs; AWS prefers virtual hosts
        forcePathStyle: appConfig.S3_FORCE_PATH_STYLE ? appConfig.S3_FORCE_PATH_STYLE === "true" : !!appConfig.S3_ENDPOINT,
        prefix: appConfig.S3_PREFIX,
      })
    : database.kind === "postgres"
      ? createPgBlobStore(database)
      : createFsBlobStore(path.join(appConfig.dataDir, "blobs"));
  return { config: appConfig, db: database.db, databaseKind: database.kind, blobs: requestTimingEnabled() ? timeBlobStore(blobs) : blobs, close: database.close };
}

/**
 * The process-wide services. Next.js bundles route handlers and instrumentation separately, so the
 * single instance lives on globalThis: two PGlite instances on one directory would corrupt it.
 */
export function getServices(): Promise<Services> {
  return processSingletonLoad("firmaviva.services", createServices);
}
