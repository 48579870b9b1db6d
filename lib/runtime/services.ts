import path from "node:path";
import { config, type AppConfig } from "@/lib/config";
import { restrictTree } from "@/lib/config/load-config";
import { openDatabase, type Db } from "@/db/client";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createPgBlobStore } from "@/lib/blob-store/pg-blob-store";
import { createS3BlobStore } from "@/lib/blob-store/s3-blob-store";
import { processSingletonLoad, processSlot } from "@/lib/process-wide/singleton";
import type { CpuPool } from "./cpu-pool";
import { timeBlobStore } from "./time-blob-store";
import { requestTimingEnabled, timed } from "./request-timing";

/**
 * The worker pools, built by the composition root (lib/server/worker-pools.ts) over the app's task
 * table. A use case names the contracts it runs: `deps.pools.cpu` is given where a
 * `TaskRunner<VerificationTasks>` is asked for.
 */
export type WorkerPools = { cpu: CpuPool; face: CpuPool; revocation: CpuPool };

export type Services = {
  config: AppConfig;
  db: Db;
  databaseKind: "pglite" | "postgres";
  blobs: BlobStore;
  pools: WorkerPools;
  close: () => Promise<void>;
};

async function createServices(makePools: (base: { db: Db }) => WorkerPools): Promise<Services> {
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
  const pools = makePools({ db: database.db });
  const close = async () => {
    await Promise.all([pools.cpu.close(), pools.face.close(), pools.revocation.close()]);
    await database.close();
  };
  return { config: appConfig, db: database.db, databaseKind: database.kind, blobs: requestTimingEnabled() ? timeBlobStore(blobs) : blobs, pools, close };
}

const SERVICES = "firmaviva.services";

/**
 * Opens the process-wide services, once, at start: the composition root (lib/server/start-server.ts)
 * gives the worker pools. Next.js bundles route handlers and instrumentation separately, so the
 * single instance lives on globalThis: two PGlite instances on one directory would corrupt it.
 */
export function openServices(makePools: (base: { db: Db }) => WorkerPools): Promise<Services> {
  return processSingletonLoad(SERVICES, () => createServices(makePools));
}

/** The services opened at start (instrumentation runs before any request is served). */
export function getServices(): Promise<Services> {
  const opened = processSlot<Promise<Services>>(SERVICES).get();
  return opened ?? Promise.reject(new Error("the services are opened at start by lib/server/start-server.ts (instrumentation.ts)"));
}
