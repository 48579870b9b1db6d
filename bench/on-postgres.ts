// `npx tsx bench/on-postgres.ts bench/api.ts`: runs a benchmark against a throwaway PostgreSQL cluster
// (the same one the API suite's global setup starts), so TEST_DATABASE=postgres works outside vitest.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { startPostgresCluster } from "../e2e/fixtures/postgres";

async function main() {
  const script = process.argv[2];
  if (!script) throw new Error("usage: tsx bench/on-postgres.ts bench/<name>.ts [args...]");
  const cluster = await startPostgresCluster();
  try {
    const tsx = path.resolve(__dirname, "..", "node_modules", ".bin", "tsx");
    const run = spawnSync(tsx, [script, ...process.argv.slice(3)], {
      stdio: "inherit",
      env: { ...process.env, TEST_DATABASE: "postgres", TEST_PG_ADMIN_URL: cluster.adminUrl },
    });
    process.exitCode = run.status ?? 1;
  } finally {
    cluster.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
