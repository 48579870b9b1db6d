import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startTestServer, waitForExit } from "../fixtures/start-test-server";

/** A bad setting stops the start with a clear message, never a stack trace. */
describe("start-up configuration", () => {
  const cases: { env: Record<string, string>; expected: RegExp }[] = [
    { env: { APP_ENV: "staging" }, expected: /APP_ENV/ },
    { env: { MAX_UPLOAD_MB: "lots" }, expected: /MAX_UPLOAD_MB/ },
    { env: { DATABASE_URL: "mysql://x" }, expected: /DATABASE_URL: must start with postgres/ },
    { env: { DATA_DIR: "/nonexistent-parent-dir/sub/data" }, expected: /DATA_DIR: the parent directory \/nonexistent-parent-dir\/sub does not exist/ },
    { env: { SECRET_KEY: "short" }, expected: /SECRET_KEY: must be at least 32 characters/ },
  ];
  for (const c of cases) {
    it(`refuses ${Object.entries(c.env).map(([k, v]) => `${k}=${v}`).join(" ")}`, async () => {
      const server = await startTestServer({ env: c.env, waitForHealth: false });
      const { code, output } = await waitForExit(server);
      expect(code).not.toBe(0);
      expect(output).toMatch(c.expected);
      expect(output).toContain("Cannot start:");
      expect(output).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack trace
    });
  }
});

describe.skipIf(process.env.TEST_DATABASE === "postgres")("embedded database lock", () => {
  it("refuses a second server on the same DATA_DIR and takes over a stale lock", async () => {
    const first = await startTestServer();
    try {
      const second = await startTestServer({ dataDir: first.dataDir, waitForHealth: false });
      const { code, output } = await waitForExit(second).finally(() => second.kill());
      expect(code).not.toBe(0);
      expect(output).toContain(`the embedded database in ${first.dataDir} is in use by process`);
      const health = await fetch(`${first.baseUrl}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await first.kill(); // SIGKILL leaves the lock file behind
    }
    expect(fs.existsSync(path.join(first.dataDir, "server.lock"))).toBe(true);
    const third = await startTestServer({ dataDir: first.dataDir });
    try {
      expect((await fetch(`${third.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      await third.stop();
    }
  });

  it("creates DATA_DIR when only its parent exists", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "fv-parent-"));
    const server = await startTestServer({ dataDir: path.join(parent, "fresh") });
    try {
      expect(fs.existsSync(path.join(parent, "fresh", "secret.key"))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
