// What the benchmarks read about the server process from /proc (Linux): CPU time of all its
// threads (worker threads included), RSS and peak RSS.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { TestServer } from "../e2e/fixtures/start-test-server";

/** The process that serves requests: `next start` itself, or the child it forked. */
export function serverPid(server: TestServer): number {
  const pid = server.process.pid!;
  try {
    const children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split(/\s+/).filter(Boolean).map(Number);
    // the busiest by RSS is the server when `next start` forks one
    return [pid, ...children].sort((a, b) => rssMb(b) - rssMb(a))[0];
  } catch {
    return pid;
  }
}

const TICKS_PER_SECOND = 100;

/** user + system CPU time of the process (all threads, dead ones included), in ms. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[11] and fields[12] are utime and stime (fields 14 and 15 of proc(5))
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

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
