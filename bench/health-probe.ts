// The 50 MB run's /api/health probe (bench/api.ts), from a process of its own.
import { spawn } from "node:child_process";
import type { TestServer } from "../e2e/fixtures/start-test-server";

/**
 * The slowest /api/health answer while a large request runs (until `stop`): it bounds how long the
 * server's event loop was blocked (parsing, copying) meanwhile. Asked from a process of its own: in
 * this one, building and reading a 50 MB request (the Blob's copy, the answer's) stalls the client's
 * own event loop, and a probe here measured that too (~700 ms of the "pause" on a 2-core VM). It
 * asks every 10 ms, not back to back, so that on 2 cores it does not take a core from the request.
 */
export function probeHealth(server: TestServer): { stop: () => Promise<number> } {
  const script = `
    let running = true, slowest = 0;
    process.stdin.on("end", () => (running = false)).resume();
    (async () => {
      while (running) {
        const t0 = performance.now();
        await (await fetch(process.argv[1] + "/api/health")).arrayBuffer();
        slowest = Math.max(slowest, performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      process.stdout.write(String(slowest));
    })();`;
  const child = spawn(process.execPath, ["-e", script, server.baseUrl], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    stop: async () => {
      child.stdin.end();
      await exited;
      return Number(output);
    },
  };
}
