// `npx tsx bench/time-stamp-profile.ts [requests]` (on PostgreSQL: `npx tsx bench/on-postgres.ts
// bench/time-stamp-profile.ts`): where the server's main-thread CPU goes per request of
// /api/health, v2 signTimeStamp and POST /api/tsa at c=8, including what no Server-Timing stage
// covers (Next's request adapter, HTTP parsing, socket writes, compression, GC). The built server
// runs under `node --cpu-prof`; each phase's samples are picked by the monotonic clock that the
// profile and this process share. Prints figures only. Build first (`npx next build`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };
type Phase = { name: string; requests: number; fromUs: number; toUs: number; cpuMs: number };

/** The innermost frame that matches decides a sample's category; order matters only within a frame. */
const CATEGORIES: [string, RegExp][] = [
  ["garbage collector", /^\(garbage collector\)/],
  ["database: PGlite", /pglite/i],
  ["database: postgres.js", /node_modules\/postgres\//],
  ["database: drizzle", /drizzle-orm/],
  ["compression (gzip)", /node:zlib|compression\//],
  ["socket writes", /^(writev|writeUtf8String|writeLatin1String|writeBuffer|writeGeneric) /],
  ["multipart (busboy)", /busboy|streamsearch/],
  ["token signing (crypto)", /^signOneShot |^sign node:internal\/crypto/],
  ["ASN.1 (asn1js, pkijs)", /asn1js|pkijs|@peculiar/],
  ["web streams", /node:internal\/webstreams/],
  ["node streams", /node:internal\/streams/],
  ["HTTP parser, sockets", /node:_http|node:net|HTTPParser/],
  ["Next request adapter", /next\/dist\/(server|compiled)/],
  ["app code (bundled chunks)", /\.next\/server\/chunks/],
];

function categorize(profile: CpuProfile, phases: Phase[]) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (n: ProfileNode) => `${n.callFrame.functionName} ${n.callFrame.url}`;
  const perPhase = phases.map(() => new Map<string, number>());
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    t += us;
    const phase = phases.findIndex((p) => t >= p.fromUs && t < p.toUs);
    const leaf = byId.get(id)!;
    if (phase < 0 || leaf.callFrame.functionName === "(idle)") return;
    let category = `other (${leaf.callFrame.functionName || "anonymous"})`;
    search: for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = label(byId.get(cur)!);
      for (const [name, pattern] of CATEGORIES) {
        if (pattern.test(frame)) {
          category = name;
          break search;
        }
      }
    }
    perPhase[phase].set(category, (perPhase[phase].get(category) ?? 0) + us);
  });
  return perPhase;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function main() {
  const requests = Number(process.argv[2] ?? 1600);
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-tsprof-cpu-"));
  const server = await startTestServer({ nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] });
  const api = new StampApiClient(server.baseUrl);
  await api.login("v2");
  const tsq = opensslTsQuery(new Uint8Array(Buffer.from("time-stamp profile")));
  const calls: [string, () => Promise<Response>][] = [
    ["/api/health", () => fetch(`${server.baseUrl}/api/health`)],
    ["signTimeStamp", () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq })],
    ["POST /api/tsa", () => fetch(`${server.baseUrl}/api/tsa`, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body: Buffer.from(tsq) })],
  ];
  const run = async (count: number, call: () => Promise<Response>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < count) {
          const response = await call();
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
        }
      }),
    );
  };
  const serverPid = server.process.pid!;
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${serverPid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  const phases: Phase[] = [];
  for (const [name, call] of calls) {
    await run(100, call); // warm-up: route compilation, keys, prepared statements
    const cpu0 = cpuMs();
    const fromUs = nowUs();
    await run(requests, call);
    phases.push({ name, requests, fromUs, toUs: nowUs(), cpuMs: cpuMs() - cpu0 });
  }
  // a clean exit writes the profiles
  await server.stop();
  const files = fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(profileDir, f));
  // the serving thread is the one with the most samples
  const main = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as CpuProfile).sort((a, b) => b.samples.length - a.samples.length)[0];
  const perPhase = categorize(main, phases);
  const database = server.databaseUrl ? "PostgreSQL" : "PGlite";
  console.log(`main-thread CPU per request at c=8 on ${database} (ms), ${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const names = [...new Set(perPhase.flatMap((m) => [...m.keys()]))].sort((a, b) => Math.max(...perPhase.map((m) => m.get(b) ?? 0)) - Math.max(...perPhase.map((m) => m.get(a) ?? 0)));
  console.log(`${"".padEnd(32)}${phases.map((p) => p.name.padStart(16)).join("")}`);
  const line = (name: string, values: number[]) => console.log(`${name.slice(0, 31).padEnd(32)}${values.map((v) => v.toFixed(3).padStart(16)).join("")}`);
  for (const name of names.slice(0, 30)) line(name, perPhase.map((m, i) => (m.get(name) ?? 0) / 1000 / phases[i].requests));
  line("main thread, sampled", perPhase.map((m, i) => [...m.values()].reduce((a, b) => a + b, 0) / 1000 / phases[i].requests));
  line("whole process (/proc)", phases.map((p) => p.cpuMs / p.requests));
  console.log(`req/s: ${phases.map((p) => `${p.name} ${(p.requests / ((p.toUs - p.fromUs) / 1e6)).toFixed(1)}`).join(", ")} (profiling slows the server)`);
  fs.rmSync(profileDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
