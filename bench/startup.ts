// `npm run bench:startup`: cold start of the built server on a fresh DATA_DIR (migrations, bootstrap,
// PKI generation) until the first healthy request, a warm restart, and the RSS of the whole server
// process tree (scripts/serve.mjs and any child; worker threads live inside the process):
// right after each start, and warm: after a fixed load that starts every pool the stamp API uses
// (the main CPU pool: plain and stamp + QR signPDF, public verification) and the time-stamp path,
// once RSS has settled (read until it stops moving, not after a fixed pause), and idle, once the
// main pool is down to its one kept worker (with the cost of the next burst). The server's own
// readout (/api/metrics) splits it into the main thread's heap and each pool's workers. The face
// pool (the facial check) and the revocation pool (outside CRLs) are not loaded: no cheap driver.
// Build first (`npx next build`). On PostgreSQL: `npx tsx bench/on-postgres.ts bench/startup.ts`.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { startTestServer, type TestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";
import { cpuMs, rssMb } from "./server-process";
import { sendClosedLoop } from "./closed-loop-load";

const METRICS_TOKEN = "bench-startup-metrics-token-0123456789";
const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const image = fixture("images/portrait-413x531.jpg");
const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };
const stamped = { ...plain, page: 1, position_x: 40, position_y: 40, qr_type: "auto" };
/** The warm load: every call at c=8, in this order. */
const LOAD = { plain: 200, stamped: 100, timeStamps: 200, verifications: 8 };
const CONCURRENCY = 8;

/** The pid and every descendant of it. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // pgrep exits 1 when there is no child
  }
  return [pid, ...children.flatMap(processTree)];
}

function treeRss(server: TestServer): { total: number; each: string } {
  const pids = processTree(server.process.pid!);
  const each = pids.map((pid) => ({ pid, mb: rssMb(pid) }));
  return { total: each.reduce((sum, p) => sum + p.mb, 0), each: each.map((p) => `${p.pid}: ${p.mb.toFixed(0)}`).join(", ") };
}

/** Reads the tree's RSS every second until five readings in a row stay within 2 MB (at most 90 s). */
async function settledRss(server: TestServer): Promise<{ total: number; each: string; seconds: number }> {
  const started = performance.now();
  const readings: number[] = [];
  for (;;) {
    const reading = treeRss(server);
    readings.push(reading.total);
    const last = readings.slice(-5);
    const seconds = (performance.now() - started) / 1000;
    if ((last.length === 5 && Math.max(...last) - Math.min(...last) <= 2) || seconds > 90) return { ...reading, seconds };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function runAtConcurrency(total: number, call: () => Promise<Response>): Promise<void> {
  return sendClosedLoop({ total, concurrency: CONCURRENCY }, call);
}

/** The server's own view of its memory: main-thread heap and each pool's workers (firmaviva_* gauges). */
async function memoryReadout(server: TestServer): Promise<string[]> {
  const text = await (await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string, labels = "") => {
    const line = text.split("\n").find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ""} `) || (labels && l.startsWith(`${name}{`) && l.includes(labels)));
    return line ? Number(line.split(" ").pop()) / 1024 / 1024 : NaN;
  };
  const mb = (n: number) => `${n.toFixed(1)} MB`;
  const lines = [
    `  main thread: heap total ${mb(value("firmaviva_nodejs_heap_size_total_bytes"))}, used ${mb(value("firmaviva_nodejs_heap_size_used_bytes"))}, young generation ${mb(value("firmaviva_nodejs_heap_space_size_total_bytes", 'space="new"'))}, code ${mb(value("firmaviva_nodejs_heap_space_size_total_bytes", 'space="code"'))}, external ${mb(value("firmaviva_nodejs_external_memory_bytes"))}; process RSS ${mb(value("firmaviva_process_resident_memory_bytes"))}`,
  ];
  for (const pool of ["cpu", "face", "revocation"]) {
    const workers = /firmaviva_pool_workers\{pool="(\w+)"\} (\d+)/g;
    const count = [...text.matchAll(workers)].find((m) => m[1] === pool)?.[2] ?? "?";
    const part = (p: string) => mb(value("firmaviva_pool_worker_memory_bytes", `pool="${pool}",part="${p}"`));
    lines.push(`  ${pool} pool: ${count} workers; heap total ${part("heap_total")} (used ${part("heap_used")}, young generation ${part("new_space")}, code ${part("code")}), external ${part("external")}`);
  }
  return lines;
}

async function measure(label: string, options: { dataDir?: string; warm: boolean }) {
  const t0 = performance.now();
  const server = await startTestServer({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), env: { METRICS_TOKEN, LEVEL_AUDIT_RATE: "0.02", VERIFY_RATE_LIMIT: "1000" } });
  const ms = performance.now() - t0;
  const atStart = treeRss(server);
  console.log(`${label.padEnd(38)} first healthy request after ${(ms / 1000).toFixed(2)} s, RSS of the process tree ${atStart.total.toFixed(0)} MB (pid: MB ${atStart.each})`);
  try {
    if (!options.warm) return server;
    const api = new StampApiClient(server.baseUrl);
    await api.login("v2");
    const tsq = opensslTsQuery(pdf);
    const signed = new Uint8Array(await (await api.signPdf(plain, { pdf })).arrayBuffer());
    const verify = () => {
      const form = new FormData();
      form.append("file", new Blob([signed], { type: "application/pdf" }), "signed.pdf");
      return fetch(`${server.baseUrl}/api/verify`, { method: "POST", body: form });
    };
    const cpuBefore = processTree(server.process.pid!).reduce((sum, pid) => sum + cpuMs(pid), 0);
    await runAtConcurrency(LOAD.plain, () => api.signPdf(plain, { pdf }));
    await runAtConcurrency(LOAD.stamped, () => api.signPdf(stamped, { pdf, image }));
    await runAtConcurrency(LOAD.timeStamps, () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq }));
    await runAtConcurrency(LOAD.verifications, verify);
    const cpu = processTree(server.process.pid!).reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuBefore;
    const afterLoad = treeRss(server);
    const settled = await settledRss(server);
    console.log(
      `${"warm (after the load below)".padEnd(38)} RSS of the process tree ${afterLoad.total.toFixed(0)} MB right after the load, ${settled.total.toFixed(0)} MB settled (stable for 5 s, after ${settled.seconds.toFixed(0)} s; pid: MB ${settled.each})`,
    );
    console.log(`  load: ${LOAD.plain} plain signPDF, ${LOAD.stamped} stamp + QR signPDF, ${LOAD.timeStamps} signTimeStamp, ${LOAD.verifications} /api/verify, each at c=${CONCURRENCY}; server CPU ${(cpu / 1000).toFixed(1)} s`);
    console.log((await memoryReadout(server)).join("\n"));
    // idle: the main pool keeps one worker once the others were idle for a minute (lib/server/worker-pools.ts)
    const idleSince = performance.now();
    while (!(await memoryReadout(server)).some((line) => line.includes("cpu pool: 1 workers")) && performance.now() - idleSince < 150_000) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const idle = await settledRss(server);
    console.log(`${"idle (one main-pool worker left)".padEnd(38)} RSS of the process tree ${idle.total.toFixed(0)} MB, ${((performance.now() - idleSince) / 1000).toFixed(0)} s after the load`);
    console.log((await memoryReadout(server)).join("\n"));
    // what starting the second worker again costs the next burst: its p50 against the same burst warm
    const burst = async () => {
      const times: number[] = [];
      await runAtConcurrency(16, async () => {
        const t0 = performance.now();
        const response = await api.signPdf(plain, { pdf });
        times.push(performance.now() - t0);
        return response;
      });
      return times.sort((a, b) => a - b)[8];
    };
    const afterIdle = await burst();
    const warmAgain = await burst();
    console.log(`  16 plain signPDF at c=${CONCURRENCY} after idle: p50 ${afterIdle.toFixed(0)} ms; the same burst right after: p50 ${warmAgain.toFixed(0)} ms`);
    return server;
  } finally {
    await server.stop();
  }
}

async function main() {
  console.log(`startup on ${process.env.TEST_DATABASE === "postgres" ? "PostgreSQL" : "PGlite"}, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const cold = await measure("cold start (empty DATA_DIR)", { warm: false });
  await measure("warm restart (same DATA_DIR)", { dataDir: cold.dataDir, warm: true });
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
