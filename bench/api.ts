// `npm run bench:api`: latency, throughput, server CPU per request and the per-stage breakdown of
// the stamp API on the real built server. Prints figures; asserts nothing about speed. It exits
// non-zero only when a request fails or a sampled output fails test/validators/validate-pdf.mjs.
// Build first (`npx next build`); the server gets a fresh DATA_DIR. On PostgreSQL:
// `npx tsx bench/on-postgres.ts bench/api.ts`. `--large` adds the ~50 MB signPDF over HTTP (`--large-only`: that alone);
// `--time-stamps` measures only /api/health, signTimeStamp and /api/tsa (a quick run for the TSA path);
// `--sign-pdf` only /api/health and plain signPDF at c=1 and c=8 (a quick run for its database path).
// Before the measured rows the server is warmed with `--warm N` requests (default 4000) at c=8,
// every kind the run measures in turn: V8 keeps optimizing for thousands of requests (plain signPDF
// at c=8 went from ~70 to ~110 req/s over its first 5000), and a server in service is warm. The
// warm-up's own figures are printed per window, so the cold start stays visible; `--warm 0` measures cold.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { startTestServer, type TestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery, validateTsr } from "../e2e/fixtures/independent-validators";
import { readTimeStampResponse } from "../lib/tsa/read-time-stamp-response";
import { cpuMs, peakRssMb, resetPeakRss, rssMb, serverPid } from "./server-process";
import { ensureLargeInput } from "./large-input";
import { checkSampledOutputs, jsonAnswerSampler, sampler, type Sample } from "./check-sampled-outputs";
import { startHealthProbe } from "../e2e/fixtures/health-probe";
import { curlSignPdf } from "./curl-upload";

const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const image = fixture("images/portrait-413x531.jpg");
const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };
const { binary_resp: _binary, ...plainJson } = plain;
const stamped = { ...plain, page: 1, position_x: 40, position_y: 40, qr_type: "auto" };

type Figures = { name: string; requests: number; seconds: number; p50: number; p95: number; errors: number; cpuMsPerRequest: number; stages: Map<string, number[]> };

const failures: string[] = [];

async function load(server: TestServer, name: string, concurrency: number, total: number, call: () => Promise<Response>, keep?: (body: Uint8Array, response: Response) => void): Promise<Figures> {
  const latencies: number[] = [];
  const stages = new Map<string, number[]>();
  let errors = 0;
  let next = 0;
  const pid = serverPid(server);
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const response = await call();
        const body = new Uint8Array(await response.arrayBuffer());
        latencies.push(performance.now() - t0);
        if (!response.ok) {
          if (errors++ === 0) failures.push(`${name}: HTTP ${response.status} ${Buffer.from(body.subarray(0, 300)).toString()}`);
          continue;
        }
        for (const [stage, ms] of readServerTiming(response.headers.get("server-timing"))) {
          stages.set(stage, [...(stages.get(stage) ?? []), ms]);
        }
        keep?.(body, response);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMsPerRequest = (cpuMs(pid) - cpuBefore) / total;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { name, requests: latencies.length, seconds, p50: at(0.5), p95: at(0.95), errors, cpuMsPerRequest, stages };
}

/** `--warm N`: how many requests warm the server before the measured rows (default 4000). */
function warmUpRequests(): number {
  const at = process.argv.indexOf("--warm");
  if (at === -1) return 4000;
  const count = Number(process.argv[at + 1]);
  if (!Number.isInteger(count) || count < 0) throw new Error("--warm takes a whole number of requests");
  return count;
}

/** `total` requests at c=8, the calls in turn, in windows of 500: each window's rate and server CPU, so the curve shows whether it settled. */
async function warmUp(server: TestServer, calls: (() => Promise<Response>)[], total: number): Promise<string> {
  const windows: string[] = [];
  let turn = 0;
  const next = () => calls[turn++ % calls.length]();
  for (let done = 0; done < total; done += 500) {
    const window = await load(server, "warm-up", 8, Math.min(500, total - done), next);
    windows.push(`${(window.requests / window.seconds).toFixed(0)}/s ${window.cpuMsPerRequest.toFixed(1)} ms`);
  }
  return `warm-up: ${total} requests at c=8, ${calls.length} kinds in turn, per 500 (rate, server CPU per request): ${windows.join(", ") || "none"}`;
}

function readServerTiming(header: string | null): [string, number][] {
  if (!header) return [];
  return header.split(",").flatMap((part) => {
    const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    return match ? [[match[1], Number(match[2])] as [string, number]] : [];
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const row = (f: Figures) =>
  `${f.name.padEnd(38)} ${(f.requests / f.seconds).toFixed(1).padStart(7)} req/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p95 ${f.p95.toFixed(1).padStart(7)} ms   server CPU ${f.cpuMsPerRequest.toFixed(1).padStart(6)} ms/req   errors ${f.errors}`;

const STAGE_ORDER = ["plan", "produce", "complete", "auth", "multipart", "inspect", "image", "stamp-draw", "image-qr", "pdf-update", "cms", "tsa", "dss", "level", "database", "blob", "pool", "response", "total"];

/** Median of each Server-Timing stage over the phase's requests (stages are exclusive; medians need not add up). */
function breakdown(figures: Figures[]): string[] {
  const names = STAGE_ORDER.filter((stage) => figures.some((f) => f.stages.has(stage)));
  const lines = [`${"stage (median ms)".padEnd(20)}${figures.map((f) => f.name.padStart(26)).join("")}`];
  for (const stage of names) {
    lines.push(`${stage.padEnd(20)}${figures.map((f) => (f.stages.has(stage) ? median(f.stages.get(stage)!).toFixed(2) : "-").padStart(26)).join("")}`);
  }
  return lines;
}

async function main() {
  const large = process.argv.includes("--large") || process.argv.includes("--large-only") ? ensureLargeInput() : undefined;
  // the production default share of full level checks (the test servers check every output)
  const server = await startTestServer({ env: { SERVER_TIMING: "1", LEVEL_AUDIT_RATE: "0.02" } });
  const database = server.databaseUrl ? "PostgreSQL" : "PGlite";
  try {
    const api = new StampApiClient(server.baseUrl);
    await api.login("v2");
    const caPem = await api.caPem();
    const tsq = opensslTsQuery(pdf);
    const health = () => fetch(`${server.baseUrl}/api/health`);
    const signPlain = () => api.signPdf(plain, { pdf });
    const signStamped = () => api.signPdf(stamped, { pdf, image });
    // the spec's default answer: JSON with the PDF in Base64, as a client that accepts gzip asks for it
    const signPlainJson = () => api.signPdf(plainJson, { pdf });
    const signTimeStamp = () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq });
    const tsa = () => fetch(`${server.baseUrl}/api/tsa`, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: Buffer.from(tsq) });
    const timeStampsOnly = process.argv.includes("--time-stamps");
    // `--large-only`: the 50 MB figures alone (with the sampled output validated)
    const largeOnly = large !== undefined && process.argv.includes("--large-only");
    // warm-up: first requests compile routes, load keys and start the workers
    if (largeOnly) return await largeOnlyFigures(server, api, large, database, caPem);
    if (!timeStampsOnly) await load(server, "warm-up", 2, 10, signStamped);
    if (!timeStampsOnly) await load(server, "warm-up", 2, 10, signPlain);
    await load(server, "warm-up", 2, 20, signTimeStamp);
    await load(server, "warm-up", 2, 20, tsa);
    await load(server, "warm-up", 2, 20, health);
    const measured = timeStampsOnly ? [signTimeStamp, tsa, health] : process.argv.includes("--sign-pdf") ? [signPlain, signPlainJson, health] : [signPlain, signStamped, signPlainJson, signTimeStamp, tsa, health];
    console.log(await warmUp(server, measured, warmUpRequests()));

    const samples: Sample[] = [];
    if (timeStampsOnly) return await timeStampFigures(server, database, { health, signTimeStamp, tsa }, { tsq, caPem });
    if (process.argv.includes("--sign-pdf")) return await plainSignPdfFigures(server, database, { health, signPlain, signPlainJson }, caPem);
    const c1 = [
      await load(server, "/api/health c=1", 1, 200, health),
      await load(server, "signPDF binary, no image c=1", 1, 60, signPlain, sampler("plain c=1", samples)),
      await load(server, "signPDF stamp + QR c=1", 1, 60, signStamped, sampler("stamped c=1", samples)),
      await load(server, "signTimeStamp c=1", 1, 100, signTimeStamp),
    ];
    const c8 = [
      await load(server, "/api/health c=8", 8, 2000, health),
      await load(server, "signPDF binary, no image c=8", 8, 240, signPlain, sampler("plain c=8", samples)),
      await load(server, "signPDF stamp + QR c=8", 8, 160, signStamped, sampler("stamped c=8", samples)),
      await load(server, "signTimeStamp c=8", 8, 800, signTimeStamp),
      await load(server, "POST /api/tsa c=8", 8, 800, tsa),
    ];

    const lines = [`stamp API on ${database}, 1-page PDF (${pdf.length} bytes), ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`, ""];
    for (const f of [...c1, ...c8]) lines.push(row(f));
    const healthP50 = c1[0].p50;
    lines.push("", `ratios to /api/health p50 in this run (${healthP50.toFixed(1)} ms): signPDF plain ${(c1[1].p50 / healthP50).toFixed(1)}x, stamp + QR ${(c1[2].p50 / healthP50).toFixed(1)}x`);
    lines.push("", "per-stage breakdown (Server-Timing, c=1):", ...breakdown(c1.slice(1)));
    lines.push("", "per-stage breakdown (Server-Timing, c=8):", ...breakdown(c8.slice(1)));
    if (large) lines.push("", ...(await largeUpload(server, api, large, samples)));

    const checked = await checkSampledOutputs(samples, caPem);
    failures.push(...checked.failures);
    lines.push("", ...checked.lines);
    console.log(`\n${lines.join("\n")}`);
  } finally {
    await server.stop();
  }
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
}

async function largeOnlyFigures(server: TestServer, api: StampApiClient, file: string, database: string, caPem: string) {
  const samples: Sample[] = [];
  const lines = [`50 MB signPDF alone on ${database}, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`, ""];
  lines.push(...(await largeUpload(server, api, file, samples)));
  const checked = await checkSampledOutputs(samples, caPem);
  failures.push(...checked.failures);
  lines.push(...checked.lines);
  console.log(`\n${lines.join("\n")}`);
}

/** `--time-stamps`: the TSA path alone; every serial compared, the first and every 100th .tsr checked by validate-tsr. */
/** `--sign-pdf`: the plain signPDF goals alone (c=8 throughput, c=1 p50 against /api/health), a quick run for the database path. */
async function plainSignPdfFigures(server: TestServer, database: string, calls: Record<"health" | "signPlain" | "signPlainJson", () => Promise<Response>>, caPem: string) {
  const samples: Sample[] = [];
  const figures = [
    await load(server, "/api/health c=1", 1, 200, calls.health),
    await load(server, "signPDF binary, no image c=1", 1, 60, calls.signPlain, sampler("plain c=1", samples)),
    await load(server, "signPDF binary, no image c=8", 8, 240, calls.signPlain, sampler("plain c=8", samples)),
    await load(server, "signPDF JSON, no image c=1", 1, 60, calls.signPlainJson, jsonAnswerSampler("plain JSON c=1", samples)),
    await load(server, "signPDF JSON, no image c=8", 8, 240, calls.signPlainJson, jsonAnswerSampler("plain JSON c=8", samples)),
  ];
  const lines = [`stamp API on ${database}, plain signPDF only, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`, ""];
  for (const f of figures) lines.push(row(f));
  lines.push("", `ratio to /api/health p50 in this run (${figures[0].p50.toFixed(1)} ms): signPDF plain ${(figures[1].p50 / figures[0].p50).toFixed(1)}x`);
  lines.push("", "per-stage breakdown (Server-Timing):", ...breakdown(figures.slice(1)));
  const checked = await checkSampledOutputs(samples, caPem);
  failures.push(...checked.failures);
  lines.push("", ...checked.lines);
  console.log(`\n${lines.join("\n")}`);
}

async function timeStampFigures(server: TestServer, database: string, calls: Record<"health" | "signTimeStamp" | "tsa", () => Promise<Response>>, check: { tsq: Uint8Array; caPem: string }) {
  const replies: Uint8Array[] = [];
  const keep = (body: Uint8Array) => replies.push(Buffer.from(JSON.parse(Buffer.from(body).toString()).tsr_file, "base64"));
  const figures = [
    await load(server, "/api/health c=1", 1, 200, calls.health),
    await load(server, "signTimeStamp c=1", 1, 200, calls.signTimeStamp, keep),
    await load(server, "POST /api/tsa c=1", 1, 200, calls.tsa),
    await load(server, "/api/health c=8", 8, 2000, calls.health),
    await load(server, "signTimeStamp c=8", 8, 1600, calls.signTimeStamp, keep),
    await load(server, "POST /api/tsa c=8", 8, 1600, calls.tsa),
  ];
  const serials = new Set(replies.map((reply) => String(readTimeStampResponse(reply).tstInfo?.serialNumber)));
  if (serials.size !== replies.length) failures.push(`signTimeStamp: ${replies.length - serials.size} repeated serial numbers`);
  let validated = 0;
  for (let i = 0; i < replies.length; i += 100, validated++) {
    const result = validateTsr(replies[i], check.tsq, check.caPem);
    if (!result.pass) failures.push(`validate-tsr FAIL on .tsr #${i}:\n${result.output.slice(0, 2000)}`);
  }
  const lines = [`time-stamps on ${database}, ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`, ""];
  for (const f of figures) lines.push(row(f));
  lines.push("", "per-stage breakdown (Server-Timing):", ...breakdown([figures[1], figures[4], figures[5]]));
  lines.push("", `${replies.length} .tsr, ${serials.size} distinct serial numbers; validate-tsr run on ${validated} of them (failures below if any)`);
  console.log(`\n${lines.join("\n")}`);
}

/** The ~50 MB file signed over HTTP, next to sha256sum of the same file in the same run, and the server's peak RSS. */
async function largeUpload(server: TestServer, api: StampApiClient, file: string, samples: Sample[]): Promise<string[]> {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const pid = serverPid(server);
  const sha256sum = () => {
    const t0 = performance.now();
    execFileSync("sha256sum", [file]);
    return performance.now() - t0;
  };
  const inProcessSha = () => {
    const t0 = performance.now();
    createHash("sha256").update(bytes).digest();
    return performance.now() - t0;
  };
  // warm-up (page cache, first large allocation), then measured runs interleaved with sha256sum
  await curlSignPdf(server.baseUrl, api.token, plain, file);
  const baselineRss = rssMb(pid);
  resetPeakRss(pid);
  const signMs: number[] = [];
  const shaMs: number[] = [];
  const cpu: number[] = [];
  const pauses: number[] = [];
  let last: Uint8Array | undefined;
  let stages = "";
  let lastLevel: string | null = null;
  for (let i = 0; i < 3; i++) {
    shaMs.push(sha256sum());
    // every 10 ms, not back to back: on 2 cores the probe must not take a core from the request
    const probe = await startHealthProbe(server, { gapMs: 10 });
    const before = cpuMs(pid);
    const answer = await curlSignPdf(server.baseUrl, api.token, plain, file);
    const body = answer.body;
    signMs.push(answer.ms);
    pauses.push(Math.max(...(await probe.stop()).latencies));
    cpu.push(cpuMs(pid) - before);
    stages = answer.headers.get("server-timing") ?? stages;
    lastLevel = answer.headers.get("x-pades-level") ?? null;
    if (answer.status !== 200) failures.push(`50 MB signPDF: HTTP ${answer.status} ${Buffer.from(body.subarray(0, 300)).toString()}`);
    else last = body;
  }
  const peak = peakRssMb(pid);
  if (last) samples.push({ name: "50 MB signPDF", pdf: last, level: lastLevel });
  const fileMb = bytes.length / 1024 / 1024;
  const ratio = median(signMs) / median(shaMs);
  return [
    `50 MB signPDF over HTTP, sent by curl (${fileMb.toFixed(1)} MiB, binary response, c=1, 3 runs):`,
    `  signPDF p50 ${median(signMs).toFixed(0)} ms (server CPU ${median(cpu).toFixed(0)} ms); sha256sum p50 ${median(shaMs).toFixed(0)} ms; in-process SHA-256 ${inProcessSha().toFixed(0)} ms`,
    `  ratio signPDF / sha256sum = ${ratio.toFixed(2)}x (goal <= 3x)`,
    `  main-thread pause: slowest /api/health answered while a 50 MB request ran, p50 over the runs ${median(pauses).toFixed(0)} ms (max ${Math.max(...pauses).toFixed(0)} ms)`,
    `  server RSS before ${baselineRss.toFixed(0)} MB, peak during the runs ${peak.toFixed(0)} MB; peak - before = ${(peak - baselineRss).toFixed(0)} MB (goal: peak <= 1.5 x file + 100 MB = ${(1.5 * fileMb + 100).toFixed(0)} MB)`,
    `  stages of the last run (Server-Timing, wall ms): ${stages.replace(/;dur=/g, " ").replace(/,\s*/g, ", ")}`,
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
