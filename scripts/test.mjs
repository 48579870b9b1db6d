#!/usr/bin/env node
// `npm test`: type check, lint (0 warnings), build (which type-checks again), unit tests and API tests
// on PGlite, one after another; then the browser tests in one lane and, beside them, the signing API
// tests on SoftHSM, the API tests on a real PostgreSQL that this script's suite starts itself and on
// PostgreSQL with an S3 blob store. The first failing step stops everything.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDebianPackages } from "./check-debian-packages.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
process.env.NEXT_TELEMETRY_DISABLED = "1";

// before any build: a machine missing a prerequisite learns it in seconds, not after minutes of building
if (!ensureDebianPackages()) process.exit(1);

function canUnshare() {
  if (process.getuid?.() === 0 && spawnSync("unshare", ["--version"], { stdio: "ignore" }).status === 0) return true;
  if (process.env.CI) {
    console.error("CI runs the unit project in a mount namespace: it needs root and unshare (util-linux)");
    process.exit(1);
  }
  console.warn("\n!! Not root: the unit project runs in place, not in a standalone clone (npm run test:standalone needs root).\n");
  return false;
}

function hasPostgres() {
  if (fs.existsSync("/usr/lib/postgresql")) {
    return fs.readdirSync("/usr/lib/postgresql").some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  }
  return spawnSync("which", ["initdb"]).status === 0;
}

// Test files run two at a time (at most four on larger machines; vitest's default is one fewer than
// the cores, so one on our 2-core CI). Each API file starts its own server on its own database, and
// a server waits on its workers and child tools often enough that the second file fills the gaps:
// the PGlite API suite took 823 s one file at a time and 641 s two at a time, all passing, at 185 % CPU.
const fileWorkers = [`--maxWorkers=${Math.min(4, Math.max(2, os.availableParallelism()))}`, "--minWorkers=1"];

const signingApiTests = [
  "e2e/api/stamp-signing.test.ts",
  "e2e/api/stamp-large-uploads.test.ts",
  "e2e/api/stamp-async-retries.test.ts",
  "e2e/api/stamp-timestamps-and-digital.test.ts",
  "e2e/api/stamp-long-term.test.ts",
  "e2e/api/signer-evidence.test.ts",
  "e2e/api/verify.test.ts",
];

// the files whose subject is a blob path: signed outputs and queued inputs, process documents and
// evidence, photos and selfies, readiness, backups, a missing blob, two instances sharing a store,
// large streamed uploads. Every other file stores blobs only on the way to what it tests, and runs on
// PostgreSQL with the default store just before; the whole suite a fourth time would not fit the budget
const blobStoreApiTests = [
  "e2e/api/stamp-signing.test.ts",
  "e2e/api/stamp-large-uploads.test.ts",
  "e2e/api/stamp-async-retries.test.ts",
  "e2e/api/processes.test.ts",
  "e2e/api/processes-callbacks.test.ts",
  "e2e/api/signer-evidence.test.ts",
  "e2e/api/facial-id-document.test.ts",
  "e2e/api/insider.test.ts",
  "e2e/api/typed-client.test.ts",
  "e2e/api/observability.test.ts",
  "e2e/api/backup-restore.test.ts",
  "e2e/api/neighbouring-tenant.test.ts",
  "e2e/api/two-instances.test.ts",
  "e2e/api/body-limits.test.ts",
  "e2e/api/outbox-kill.test.ts",
];

const steps = [
  ["type check", bin("tsc"), ["--noEmit", "-p", "."]],
  ["lint", bin("eslint"), ["--max-warnings", "0", "."]],
  ["outside paths", process.execPath, [path.join(root, "scripts/check-outside-paths.mjs")]],
  ["build", process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"]],
  // the unit project runs once, in a clone of HEAD where nothing stands beside the checkout (a test that
  // reads the shared folder, a machine path or an uncommitted file fails there); in place only where a mount
  // namespace cannot be made (not root), and never on CI
  canUnshare()
    ? ["unit tests (standalone clone)", process.execPath, [path.join(root, "scripts/test-standalone.mjs"), ...fileWorkers]]
    : ["unit tests", bin("vitest"), ["run", "--project", "unit", ...fileWorkers]],
  ["API tests on PGlite", bin("vitest"), ["run", "--project", "api", ...fileWorkers]],
];
// The browser suite (one Playwright worker) keeps the 2-core CI about 75 % busy: it runs beside the
// SoftHSM and PostgreSQL API steps, which share nothing with it (their own servers, databases, ports
// and data folders). Those files run one at a time there: two at a time kept the 2 cores at 99 % and
// failed load-sensitive tests (hostile-input's health p95, login-throttle) in one CI run of three.
const oneFileAtATime = ["--no-file-parallelism"];
const besideBrowser = [
  // the signing files again with the CA, TSA and agent keys in a SoftHSM2 token (PKCS11_MODULE): every
  // output still passes the independent validators; the whole suite twice would not fit the time budget
  ["signing API tests on SoftHSM (PKCS#11)", bin("vitest"), ["run", "--project", "api", ...oneFileAtATime, ...signingApiTests], { TEST_KEY_STORE: "softhsm" }],
];
if (hasPostgres()) {
  besideBrowser.push(["API tests on PostgreSQL", bin("vitest"), ["run", "--project", "api", ...oneFileAtATime], { TEST_DATABASE: "postgres" }]);
  // the blob-path files again with blobs in an S3-compatible bucket (s3rver, started by the suite's global setup)
  besideBrowser.push(["API tests on PostgreSQL with S3 blobs", bin("vitest"), ["run", "--project", "api", ...oneFileAtATime, ...blobStoreApiTests], { TEST_DATABASE: "postgres", TEST_BLOB_STORE: "s3" }]);
} else if (process.env.CI) {
  console.error("PostgreSQL is not installed, and CI must run the API suite on it: apt-get install -y postgresql");
  process.exit(1);
} else {
  console.warn("\n!! Skipping the API suite on PostgreSQL: PostgreSQL is not installed (apt-get install -y postgresql).\n");
}
const browser = [["browser tests", bin("playwright"), ["test"]]];

const only = process.argv.slice(2);
const chosen = (steps) => steps.filter(([name]) => !only.length || only.some((o) => name.toLowerCase().includes(o.toLowerCase())));
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

for (const [name, command, args, env] of chosen(steps)) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${seconds(started)} s ===`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.exit(await runLanes([chosen(browser), chosen(besideBrowser)].filter((lane) => lane.length)));

/**
 * Runs lanes side by side, each lane's steps one after another. The first lane prints as it goes; the
 * others' output goes to files, printed whole once every lane has ended, so no two outputs interleave.
 * The first failing step stops every lane (each step runs in a process group of its own).
 */
async function runLanes(lanes) {
  const running = new Set();
  const kept = [];
  let failed = 0;
  const stopAll = () => running.forEach((child) => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // the group has already ended
    }
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => (stopAll(), process.exit(130)));
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-test-lanes-"));
  await Promise.all(lanes.map(async (lane, index) => {
    for (const [name, command, args, env] of lane) {
      if (failed) return;
      const started = Date.now();
      const log = index === 0 ? null : path.join(logDir, `${index}-${name.replace(/\W+/g, "-")}.log`);
      const out = log ? fs.openSync(log, "w") : "inherit";
      console.log(log ? `\n=== ${name}: started in a lane beside; its output is printed at the end ===` : `\n=== ${name} ===`);
      const child = spawn(command, args, { cwd: root, stdio: ["ignore", out, out], env: { ...process.env, ...env }, detached: true });
      running.add(child);
      const status = await new Promise((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
      running.delete(child);
      if (log) {
        fs.closeSync(out);
        kept.push({ name, log });
      }
      const verdict = status === 0 ? "passed" : failed ? "stopped" : "FAILED";
      console.log(`=== ${name}: ${verdict} in ${seconds(started)} s ===`);
      if (status !== 0 && !failed) {
        failed = status;
        stopAll();
      }
    }
  }));
  for (const { name, log } of kept) console.log(`\n=== output of ${name} ===\n${fs.readFileSync(log, "utf8")}`);
  fs.rmSync(logDir, { recursive: true, force: true });
  return failed;
}
