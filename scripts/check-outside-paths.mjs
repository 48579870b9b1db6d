#!/usr/bin/env node
// Part of `npm run lint`: the repository stands alone, so no source, test, bench or script file may name
// a folder of the machine it was written on (/work/, /home/, /root/, /tmp/, /mnt/, /srv/, /opt/, /Users/),
// the shared folder beside a checkout (../shared) or SHARED_DIR. System paths that every Debian machine
// has (/usr/bin/chromium, /usr/share/java, /dev/null, /proc, /etc) are fine. Docs' prose may say where a
// fixture came from; their executable examples (*.sh) may not. Usage: check-outside-paths.mjs [ROOT]
import fs from "node:fs";
import path from "node:path";

const SKIP_DIRS = new Set(["node_modules", ".git", ".next", "data", "artifacts", "test-results", "playwright-report"]);
// data, not code: copied fixtures and recorded benchmark outputs (which quote the paths they ran on)
const SKIP_PATHS = ["test/fixtures", "bench/results"];
const CHECKED = /\.(ts|tsx|mts|cts|js|mjs|cjs|sh|java|json|yml|yaml)$/;
const RULES = [
  { name: "absolute machine path", pattern: /(?<![\w.$~-])\/(work|home|root|tmp|mnt|srv|opt|Users|var\/tmp)\/[\w.-]/ },
  { name: "the shared folder beside the checkout", pattern: /\.\.\/shared\b/ },
  { name: "SHARED_DIR", pattern: /\bSHARED_DIR\b/ },
];
const SELF = ["scripts/check-outside-paths.mjs", "scripts/check-outside-paths.test.ts"];

function* walk(root, dir = "") {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_PATHS.includes(rel)) yield* walk(root, rel);
    } else if (CHECKED.test(entry.name) && !SELF.includes(rel) && entry.name !== "package-lock.json") yield rel;
  }
}

export function findOutsidePaths(root) {
  const found = [];
  for (const rel of walk(root)) {
    const lines = fs.readFileSync(path.join(root, rel), "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${rel}:${i + 1}: ${rule.name}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(new URL(import.meta.url).pathname)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), ".."));
  const found = findOutsidePaths(root);
  for (const line of found) console.error(line);
  if (found.length) {
    console.error(`\n${found.length} line(s) reach outside the checkout: read fixtures with fixturePath() from test/fixtures-dir.ts, temporary files under os.tmpdir().`);
    process.exit(1);
  }
  console.log("check-outside-paths: no file reaches outside the checkout");
}
