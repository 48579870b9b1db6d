import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = path.resolve(__dirname, "check-outside-paths.mjs");

function checkTree(files: Record<string, string>): { status: number | null; output: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "outside-paths-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  const result = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("scripts/check-outside-paths.mjs (part of npm run lint)", () => {
  it("passes on this repository", () => {
    const result = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it("passes system paths every Debian machine has, and prose in docs", () => {
    const clean = checkTree({
      "lib/a.ts": 'const browser = "/usr/bin/chromium"; const jars = "/usr/share/java"; const sink = "/dev/null"; const me = "/proc/self/status";',
      "docs/fixtures.md": "The PDFs were copied from /work/shared/fixtures.",
      "test/fixtures/pdfs/a.json": '{"from": "/work/shared"}',
    });
    expect(clean.status, clean.output).toBe(0);
  });

  it.each([
    ["an absolute fixture path", "lib/x.test.ts", 'readFileSync("/work/shared/fixtures/pdfs/valid/a.pdf")'],
    ["a home folder", "e2e/api/y.test.ts", 'const key = "/home/dev/key.pem";'],
    ["a fixed temporary file", "bench/z.ts", "writeFileSync(`/tmp/out.pdf`, bytes)"],
    ["the folder beside the checkout", "lib/w.test.ts", 'path.resolve(__dirname, "../../../shared/fixtures")'],
    ["SHARED_DIR", "e2e/fixtures/v.ts", "const dir = process.env.SHARED_DIR;"],
    ["a docs example that is run", "docs/walkthrough/run.sh", "curl -F pdf=@/work/shared/fixtures/a.pdf"],
  ])("fails on %s", (_name, file, line) => {
    const result = checkTree({ "lib/ok.ts": "export const ok = 1;\n", [file]: `${line}\n` });
    expect(result.status, result.output).toBe(1);
    expect(result.output).toContain(`${file}:1:`);
  });
});
