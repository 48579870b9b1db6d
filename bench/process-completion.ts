// `npm run bench:completion`: how long a signature process takes to complete once its last signer
// signs: from that signer's sign request to the B-LTA output stored and the callback queued (the
// response is sent after the transaction that records the signature and queues the callback
// commits), on the real built server. Signers have no facial challenge, so the face check is not
// in the figure. Two signers per process; only the second (last) signature is timed. Prints p50/p95
// and the median Server-Timing stages of the timed requests; asserts nothing about speed. It exits
// non-zero when a request fails, a callback never arrives or a sampled output fails
// test/validators/validate-pdf.mjs. Build first (`npx next build`). On PostgreSQL:
// `npx tsx bench/on-postgres.ts bench/process-completion.ts`. `--processes N` (default 20).
// `--profile`: the server runs under --cpu-prof (every thread, the whole run: creation, first and
// last signers) and the heaviest functions of each thread are printed after the figures.
// `--statements` (on PostgreSQL only): the SQL statements of the first timed completion, from the
// server's statement log (bench/statement-log.ts). `--warm N` (default 2): processes completed before
// the timed ones, their last signature's p50 printed per window of 20, so a warm server's figure and
// the cold start are both visible (the server keeps compiling hot code for thousands of requests).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import os from "node:os";
import { ADMIN_API_SECRET } from "../e2e/fixtures/start-test-server";
import { startSeededServer } from "../e2e/fixtures/start-seeded-server";
import { login, processApi, signer, waitFor } from "../e2e/fixtures/process-api-client";
import { signerHttp } from "../e2e/fixtures/signer-http-flow";
import { validatePdf } from "../e2e/fixtures/independent-validators";
import { cpuMs, serverPid } from "./server-process";
import { summarizeCpuProfile } from "./summarize-cpu-profile";
import { openStatementLog, type StatementLog } from "./statement-log";

const flag = process.argv.indexOf("--processes");
const PROCESSES = flag > 0 ? Number(process.argv[flag + 1]) : 20;
const warmFlag = process.argv.indexOf("--warm");
const WARM_UP = warmFlag > 0 ? Number(process.argv[warmFlag + 1]) : 2;
if (!Number.isInteger(WARM_UP) || WARM_UP < 0) throw new Error("--warm takes a whole number of processes");
if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error("--processes takes a whole number of processes, at least 1");
const profileDir = process.argv.includes("--profile") ? fs.mkdtempSync(path.join(os.tmpdir(), "fv-completion-prof-")) : undefined;
const STAGE_ORDER = ["plan", "produce", "complete", "database", "certificate", "level", "blob", "pool", "stamp-draw", "cms", "tsa", "dss", "total"];

/** Wall time and the server's CPU time (all its threads) of the last signer's sign request. */
type Completion = { ms: number; cpuMs: number; stages: Map<string, number> };

async function main() {
  const callbacks = new Map<string, string>();
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const { id, status } = JSON.parse(body) as { id: string; status: string };
      callbacks.set(id, status);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
  let statementLog: StatementLog | undefined;
  if (process.argv.includes("--statements")) {
    if (!process.env.TEST_PG_ADMIN_URL) throw new Error("--statements: run through bench/on-postgres.ts");
    statementLog = await openStatementLog(process.env.TEST_PG_ADMIN_URL);
  }
  let completionStatements: ReturnType<StatementLog["since"]> | undefined;
  // the production sampling rate of the full re-verification (test servers verify every output), as bench/api.ts
  const seeded = await startSeededServer({ env: { SERVER_TIMING: "1", LEVEL_AUDIT_RATE: process.env.LEVEL_AUDIT_RATE ?? "0.02" }, nodeArgs: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [] });
  const base = seeded.server.baseUrl;
  const database = seeded.server.databaseUrl ? "PostgreSQL" : "PGlite";
  const failures: string[] = [];
  const pid = serverPid(seeded.server);
  try {
    const { shared } = seeded.orgs;
    const admin = processApi(base, await login(base, shared.domain, shared.admin, ADMIN_API_SECRET));

    /** One process with two signers without the facial challenge; returns the last signature's figures. */
    const complete = async (logStatements = false): Promise<Completion & { id: string }> => {
      const people = [signer({ signChallenges: [] }), signer({ signChallenges: [] })];
      const created = await admin.create({ signers: people, urlCallback: callbackUrl, description: "bench completion", readChallenges: [] });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
      const { id, msg: link } = (await created.json()) as { id: string; msg: string };
      const listed = (await (await admin.list({ process_id: id })).json()) as { signatureProcesses: { documents: { id: string; pages: number }[] }[] };
      const documents = listed.signatureProcesses[0].documents;
      let last: Completion | undefined;
      for (const [index, person] of people.entries()) {
        const flow = signerHttp(base, link);
        const steps = [await flow.identify(person.doc_id), await flow.confirmNames("Rosa Elena", index === 0 ? "Quispe" : "Mamani")];
        for (const step of steps) if (step.status !== 200) throw new Error(`signer flow: ${step.status} ${await step.text()}`);
        await flow.showEveryPage(documents);
        const isLast = index === people.length - 1;
        const logFrom = logStatements && isLast ? statementLog?.mark() : undefined;
        const cpuBefore = cpuMs(pid);
        const t0 = performance.now();
        const signed = await flow.sign();
        const body = await signed.text();
        const ms = performance.now() - t0;
        const cpu = cpuMs(pid) - cpuBefore;
        if (logFrom !== undefined) completionStatements = statementLog!.since(logFrom);
        if (signed.status !== 200) throw new Error(`sign: ${signed.status} ${body}`);
        if (isLast) {
          if (!(JSON.parse(body) as { completed?: boolean }).completed) throw new Error(`the last signature did not complete the process: ${body}`);
          last = { ms, cpuMs: cpu, stages: readServerTiming(signed.headers.get("server-timing")) };
        }
      }
      return { id, ...last! };
    };

    const warmWindows: string[] = [];
    for (let done = 0; done < WARM_UP; done += 20) {
      const window: number[] = [];
      for (let i = done; i < Math.min(WARM_UP, done + 20); i++) window.push((await complete()).ms);
      warmWindows.push(`${median(window).toFixed(1)}`);
    }
    const runs: (Completion & { id: string })[] = [];
    for (let i = 0; i < PROCESSES; i++) runs.push(await complete(i === 0));

    // the callback was queued with the completion: each one is delivered by the dispatcher
    for (const run of runs) {
      await waitFor(async () => callbacks.get(run.id) === "signed", 120_000).catch(() => failures.push(`no "signed" callback for ${run.id}`));
    }
    // a keep-alive socket the server closed while the callbacks arrived fails once (under load); ask again
    const again = async <T>(read: () => Promise<T>): Promise<T> => {
      try {
        return await read();
      } catch {
        return read();
      }
    };
    const caPem = await again(async () => (await fetch(`${base}/api/pki/ca.pem`)).text());
    const sampled = [runs[0], runs[Math.floor(runs.length / 2)], runs.at(-1)!];
    let valid = 0;
    for (const run of sampled) {
      const record = await again(async () => (await (await admin.list({ process_id: run.id })).json()) as { signatureProcesses: { documents: { url: string }[] }[] });
      const output = await again(async () => new Uint8Array(await (await fetch(record.signatureProcesses[0].documents[0].url)).arrayBuffer()));
      const check = validatePdf(output, caPem);
      if (check.pass && check.signatures >= 3) valid++;
      else failures.push(`validate-pdf on ${run.id} (${check.signatures} signatures):\n${check.output.slice(0, 2000)}`);
    }

    const times = runs.map((r) => r.ms).sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    const lines = [
      `process completion on ${database}: ${runs.length} processes (2 signers, 1-page PDF, no facial challenge), ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`,
      "",
      `warm-up: ${WARM_UP} processes before the timed ones; last signature's p50 (ms) per 20: ${warmWindows.join(", ") || "none"}`,
      `last signer's sign request -> B-LTA stored + callback queued: p50 ${at(0.5).toFixed(1)} ms   p95 ${at(0.95).toFixed(1)} ms   min ${times[0].toFixed(1)} ms   max ${times.at(-1)!.toFixed(1)} ms`,
      `server CPU (all threads, 10 ms ticks) during that request: p50 ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms`,
      "",
      "per-stage breakdown of the last signature (Server-Timing, median ms; stages are exclusive):",
    ];
    for (const stage of [...STAGE_ORDER, ...new Set(runs.flatMap((r) => [...r.stages.keys()]))].filter((s, i, all) => all.indexOf(s) === i)) {
      const values = runs.flatMap((r) => (r.stages.has(stage) ? [r.stages.get(stage)!] : []));
      if (values.length > 0) lines.push(`  ${stage.padEnd(14)}${median(values).toFixed(2).padStart(10)}`);
    }
    lines.push("", `callbacks delivered: ${runs.filter((r) => callbacks.get(r.id) === "signed").length}/${runs.length}`);
    lines.push(`validate-pdf: ${valid}/${sampled.length} sampled outputs PASS (each with both signatures and the document time-stamp)`);
    if (completionStatements) {
      const { own, background } = completionStatements;
      lines.push("", `the last signer's sign request ran ${own.length} statements${background ? ` (and ${background} of the outbox dispatcher's poll meanwhile)` : ""}:`, ...own.map((statement) => `  ${statement}`));
    }
    console.log(`\n${lines.join("\n")}`);
  } finally {
    await seeded.server.stop();
    receiver.close();
  }
  for (const file of profileDir ? fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile")) : []) {
    console.log(`\n=== ${file}`);
    console.log(summarizeCpuProfile(path.join(profileDir!, file), 25, 40).join("\n"));
  }
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
}

function readServerTiming(header: string | null): Map<string, number> {
  const stages = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    if (match) stages.set(match[1], Number(match[2]));
  }
  return stages;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
