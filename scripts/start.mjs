#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, then serve.
// Migrations and the first-start bootstrap run inside the server (instrumentation.ts).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsStale() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = ["app", "components", "lib", "db", "instrumentation.ts", "next.config.js", "package.json"]
    .map((p) => path.join(root, p))
    .filter((p) => fs.existsSync(p))
    .map((p) => (fs.statSync(p).isDirectory() ? newestSourceMtime(p) : fs.statSync(p).mtimeMs));
  return Math.max(...sources) > built;
}

if (buildIsStale()) {
  console.log("Building the application (first start or changed sources)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The main thread's young generation: V8 grows it to 32 MB under load and keeps it; 2 MB semi-spaces
// hold warm RSS ~35 MB lower at the same CPU per request (docs/architecture.md, issue 40). Through
// NODE_OPTIONS, so the server (scripts/serve.mjs) inherits it; an operator's own value comes last and wins.
const nodeOptions = ["--max-semi-space-size=2", process.env.NODE_OPTIONS].filter(Boolean).join(" ");
// glibc gives each thread that allocates (the main thread, the pools' workers, libuv's) its own malloc
// arena and keeps what each freed: one arena holds warm RSS ~40 MB lower at the same throughput on 2
// cores (docs/architecture.md, issue 40). An operator's own MALLOC_ARENA_MAX wins (more cores, more contention).
const mallocArenaMax = process.env.MALLOC_ARENA_MAX ?? "1";
const server = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", process.env.PORT || "3000"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_OPTIONS: nodeOptions, MALLOC_ARENA_MAX: mallocArenaMax } });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
