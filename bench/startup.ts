// `npm run bench:startup`: cold start of the built server on a fresh DATA_DIR (migrations, bootstrap,
// PKI generation) until the first healthy request, a warm restart, and RSS after start.
import fs from "node:fs";
import { startTestServer } from "../e2e/fixtures/start-test-server";

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function measure(label: string, dataDir?: string) {
  const t0 = performance.now();
  const server = await startTestServer(dataDir ? { dataDir } : {});
  const ms = performance.now() - t0;
  const rss = rssMb(server.process.pid!);
  console.log(`${label.padEnd(38)} first healthy request after ${(ms / 1000).toFixed(2)} s, RSS ${rss.toFixed(0)} MB`);
  await server.stop();
  return server;
}

async function main() {
  const cold = await measure(`cold start (${process.env.TEST_DATABASE === "postgres" ? "PostgreSQL" : "PGlite"}, empty DATA_DIR)`);
  await measure("warm restart (same DATA_DIR)", cold.dataDir);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
