import { startPostgresCluster } from "../fixtures/postgres";
import { startS3Server } from "../fixtures/s3-server";
import { createSoftHsmToken } from "@/lib/pki/testing/softhsm-token";
import { preparePgliteTemplate } from "@/db/testing/pglite-template";

/**
 * For TEST_DATABASE=postgres, one PostgreSQL cluster for the whole API run; each server gets its own
 * database. For TEST_BLOB_STORE=s3, one local S3-protocol server whose settings every server inherits.
 * For TEST_KEY_STORE=softhsm, one SoftHSM2 token in a fresh directory: every server keeps its CA, TSA
 * and agent keys there (PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN and SOFTHSM2_CONF inherited).
 * Always, one migrated embedded cluster that every new data directory starts as (PGLITE_TEMPLATE_DIR
 * inherited): a server's first start then skips ~5 s of initdb and migrations.
 */
export default async function setup() {
  const stops: (() => unknown)[] = [await preparePgliteTemplate()];
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
  if (process.env.TEST_KEY_STORE === "softhsm") {
    const token = createSoftHsmToken();
    Object.assign(process.env, token.env);
    stops.push(() => token.remove());
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
