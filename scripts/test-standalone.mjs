#!/usr/bin/env node
// `npm run test:standalone`: the unit project as a newcomer's clone runs it. HEAD is cloned into a
// temporary folder, node_modules is hard-linked from this checkout (the same lock file: an install
// would fetch the very same files) and the unit tests run inside a mount namespace (`unshare -m`,
// root) where everything beside this checkout is hidden: its parent folder is covered by an empty
// tmpfs, and the clone is bind-mounted where this checkout was. A test that reads the shared folder, an
// absolute path of this machine or a file that is not committed fails there.
// Usage: test-standalone.mjs [--plant FILE=SOURCE]... [vitest filters...]
//   --plant copies SOURCE into the clone as FILE before the run (the counter-test's planted test).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const parent = path.dirname(root);

function sh(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: "inherit", ...options });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function must(command, args, options) {
  const status = sh(command, args, options);
  if (status !== 0) {
    console.error(`test:standalone: ${command} ${args.join(" ")} failed (exit ${status})`);
    process.exit(1);
  }
}

const plants = [];
const filters = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--plant") {
    const [file, source] = argv[++i].split("=");
    plants.push({ file, source: path.resolve(source) });
  } else filters.push(argv[i]);
}

if (process.getuid?.() !== 0 || sh("unshare", ["--version"], { stdio: "ignore" }) !== 0) {
  console.error("test:standalone needs root and unshare (util-linux) for its mount namespace");
  process.exit(1);
}
if (parent === "/") {
  console.error("test:standalone: the checkout sits in /, whose other entries cannot be hidden");
  process.exit(1);
}

// the clone must not lie beside the checkout, where the empty tmpfs will cover it (a checkout cloned
// into a folder of the temporary directory, say): the first candidate outside the parent folder, on the same file system if it can be
const besideCheckout = (dir) => dir === parent || dir.startsWith(`${parent}/`);
const base = [os.tmpdir(), "/var/tmp", os.homedir()].map((dir) => path.resolve(dir)).find((dir) => !besideCheckout(dir) && fs.existsSync(dir));
if (!base) {
  console.error(`test:standalone: no temporary folder outside ${parent}; set TMPDIR elsewhere`);
  process.exit(1);
}
const work = fs.mkdtempSync(path.join(base, "fv-standalone-"));
// the tests' own temporary files go where the tmpfs does not reach
const testTmp = besideCheckout(path.resolve(os.tmpdir())) ? path.join(work, "tmp") : undefined;
if (testTmp) fs.mkdirSync(testTmp);
const clone = path.join(work, path.basename(root));
try {
  const head = spawnSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
  console.log(`test:standalone: cloning ${head} into ${clone}`);
  must("git", ["clone", "-q", "--no-checkout", root, clone]);
  must("git", ["-C", clone, "checkout", "-q", "--detach", head]);
  // a hard-linked tree when both folders share a file system, else a real copy
  if (sh("cp", ["-al", path.join(root, "node_modules"), path.join(clone, "node_modules")], { stdio: "ignore" }) !== 0) {
    fs.rmSync(path.join(clone, "node_modules"), { recursive: true, force: true });
    must("cp", ["-a", path.join(root, "node_modules"), path.join(clone, "node_modules")]);
  }
  for (const { file, source } of plants) {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(source, path.join(clone, file));
  }

  // inside the namespace: the clone stands where this checkout stood, and nothing else stands beside it
  const q = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const stash = path.join(work, "stash");
  const place = path.join(parent, path.basename(root));
  const vitest = ["node_modules/.bin/vitest", "run", "--project", "unit", ...filters].map(q).join(" ");
  const script = [
    "set -e",
    `mkdir -p ${q(stash)}`,
    `mount --bind ${q(clone)} ${q(stash)}`,
    `mount -t tmpfs -o size=16m standalone-empty ${q(parent)}`,
    `mkdir -p ${q(place)}`,
    `mount --bind ${q(stash)} ${q(place)}`,
    `cd ${q(place)}`,
    `echo "test:standalone: beside the checkout now: $(ls -A .. | tr '\\n' ' ')"`,
    `exec ${vitest}`,
  ].join("\n");
  const status = sh("unshare", ["-m", "--propagation", "private", "sh", "-c", script], { env: { ...process.env, CI: process.env.CI ?? "", ...(testTmp ? { TMPDIR: testTmp } : {}) } });
  console.log(`test:standalone: ${status === 0 ? "PASS" : `FAIL (exit ${status})`}`);
  process.exitCode = status;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
