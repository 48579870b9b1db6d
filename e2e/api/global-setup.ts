import { startPostgresCluster } from "../fixtures/postgres";

/** For TEST_DATABASE=postgres, one PostgreSQL cluster for the whole API run; each server gets its own database. */
export default async function setup() {
  if (process.env.TEST_DATABASE !== "postgres") return;
  const cluster = await startPostgresCluster();
  process.env.TEST_PG_ADMIN_URL = cluster.adminUrl;
  return () => cluster.stop();
}
