// What the benchmarks read about the server process from /proc (Linux): CPU time of all its
// threads (worker threads included), RSS and peak RSS.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { cpuMsOf } from "../e2e/fixtures/server-load";
import type { TestServer } from "../e2e/fixtures/start-test-server";

/** The process that serves requests (scripts/serve.mjs), or a child it forked. */
export function serverPid(server: TestServer): number {
  const pid = server.process.pid!;
  try {
    const children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split(/\s+/).filter(Boolean).map(Number);
    // the busiest by RSS is the server, should the entry fork one
    return [pid, ...children].sort((a, b) => rssMb(b) - rssMb(a))[0];
  } catch {
    return pid;
  }
}

/** user + system CPU time of the process (all threads, dead ones included), in ms. */
export const cpuMs = (pid: number): number => cpuMsOf(`/proc/${pid}/stat`);

function statusKb(pid: number, key: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]);
}

export const rssMb = (pid: number) => statusKb(pid, "VmRSS") / 1024;
export const peakRssMb = (pid: number) => statusKb(pid, "VmHWM") / 1024;

/** Resets the peak RSS (VmHWM) to the current RSS, so a later peak belongs to what ran since. */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
