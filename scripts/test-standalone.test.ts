import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const PARENT = path.dirname(ROOT);
// the folder beside the checkout that a careless test would read: the real shared folder where there
// is one, else a probe made here (inside test:standalone's own namespace the parent is an empty tmpfs)
const hasShared = fs.existsSync(path.join(PARENT, "shared"));
const SIBLING = hasShared ? "shared" : `shared-probe-${process.pid}`;
if (!hasShared) fs.mkdirSync(path.join(PARENT, SIBLING));
afterAll(() => {
  if (!hasShared) fs.rmSync(path.join(PARENT, SIBLING), { recursive: true, force: true });
});

function plant(name: string, body: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "planted-")), name);
  fs.writeFileSync(file, `import fs from "node:fs";\nimport path from "node:path";\nimport { expect, it } from "vitest";\n${body}\n`);
  return file;
}

/** Asynchronous, so the test worker keeps answering vitest while the nested run takes minutes. */
function standalone(planted: string, as: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/test-standalone.mjs"), "--plant", `${as}=${planted}`, as], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });
}

describe("npm run test:standalone", { timeout: 900_000 }, () => {
  it("fails when a planted test reads the folder beside the checkout, which exists outside the namespace", async () => {
    expect(fs.existsSync(path.join(PARENT, SIBLING))).toBe(true);
    const file = plant("reads-outside.test.ts", `it("reads ../${SIBLING}", () => {\n  expect(fs.readdirSync(path.resolve(__dirname, "../../${SIBLING}"))).toBeDefined();\n});`);
    const result = await standalone(file, "lib/planted-reads-outside.test.ts");
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toMatch(/ENOENT/);
  });

  it("passes the same planted test when it reads a committed fixture instead", async () => {
    const file = plant("reads-inside.test.ts", `it("reads test/fixtures", () => {\n  expect(fs.readFileSync(path.resolve(__dirname, "../test/fixtures/README.md"), "utf8")).toContain("# Test fixtures");\n});`);
    const result = await standalone(file, "lib/planted-reads-inside.test.ts");
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("test:standalone: PASS");
  });
});
