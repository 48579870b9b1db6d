#!/usr/bin/env node
// `npm run test:busy [-- N]`: the whole `npm test` with N busy loops (default 2, one per core here)
// running beside it, to show that no test depends on the machine being idle (issue 16).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const count = Number(process.argv[2] ?? 2);
const hogs = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
console.log(`${count} busy loops running beside the suite (pids ${hogs.map((h) => h.pid).join(", ")})`);
const started = Date.now();
const result = spawnSync(process.execPath, [path.join(root, "scripts/test.mjs")], { stdio: "inherit", cwd: root });
for (const hog of hogs) hog.kill("SIGKILL");
console.log(`suite beside ${count} busy loops: exit ${result.status} after ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(result.status ?? 1);
