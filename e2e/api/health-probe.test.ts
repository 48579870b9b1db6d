import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventLoopStallCheck, healthDuring } from "../fixtures/server-load";
import type { TestServer } from "../fixtures/start-test-server";

// A stand-in server whose event loop the test stalls at will (`/stall?ms=`): the counter-test of the
// verdict the hostile-upload tests rely on (e2e/api/hostile-input.test.ts).
const script = `
  const http = require("node:http");
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, "http://x");
    if (url.pathname === "/stall") {
      const until = Date.now() + Number(url.searchParams.get("ms"));
      while (Date.now() < until);
    }
    response.end('{"status":"ok"}');
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;

let server: TestServer;

beforeAll(async () => {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  server = { baseUrl: `http://127.0.0.1:${port}`, process: child } as unknown as TestServer;
});
afterAll(() => {
  server?.process.kill();
});

const stall = (ms: number) => fetch(`${server.baseUrl}/stall?ms=${ms}`).then((response) => response.arrayBuffer());

describe("the health probe's stall verdict", () => {
  it("four stalls of the server's event loop, 2 s each, exceed the bound", async () => {
    const stalled = await healthDuring(server, async () => {
      for (let i = 0; i < 4; i++) await Promise.all([stall(2000), new Promise((resolve) => setTimeout(resolve, 30))]);
    });
    const check = eventLoopStallCheck(stalled);
    expect(check.p95, check.text).toBeGreaterThanOrEqual(check.bound);
    // the probe's own control never waited on the stalled server
    expect(check.controlP95, check.text).toBeLessThan(check.p95 / 2);
  }, 60_000);

  it("a server whose loop is free stays under the bound", async () => {
    const free = await healthDuring(server, () => new Promise((resolve) => setTimeout(resolve, 1500)));
    const check = eventLoopStallCheck(free);
    expect(check.p95, check.text).toBeLessThan(check.bound);
  }, 60_000);
});
