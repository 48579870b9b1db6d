import { startPostgresCluster } from "../fixtures/postgres";
import { startS3Server } from "../fixtures/s3-server";

/**
 * For TEST_DATABASE=postgres, one PostgreSQL cluster for the whole API run; each server gets its own
 * database. For TEST_BLOB_STORE=s3, one local S3-protocol server whose settings every server inherits.
 */
export default async function setup() {
  const stops: (() => unknown)[] = [];
  if (process.env.TEST_DATABASE === "postgres") {
    const cluster = await startPostgresCluster();
    process.env.TEST_PG_ADMIN_URL = cluster.adminUrl;
    stops.push(() => cluster.stop());
  }
  if (process.env.TEST_BLOB_STORE === "s3") {
    const s3 = await startS3Server();
    Object.assign(process.env, s3.env);
    stops.push(() => s3.stop());
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
