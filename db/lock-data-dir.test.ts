import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSync } from "esbuild";
import { DataDirInUseError, lockDataDir } from "./lock-data-dir";

let work: string;
let childScript: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "fv-lock-"));
  childScript = path.join(work, "child.mjs");
  // bundled once so each trial starts plain node processes quickly, as servers start
  buildSync({ entryPoints: [path.join(__dirname, "lock-data-dir.child.ts")], bundle: true, platform: "node", format: "esm", outfile: childScript, logLevel: "silent" });
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

type Contender = { child: ChildProcess; outcome: Promise<string>; ready: Promise<void> };

function contender(dataDir: string): Contender {
  const child = spawn(process.execPath, [childScript, dataDir], { stdio: ["pipe", "pipe", "inherit"] });
  let buffer = "";
  let onReady: () => void;
  const ready = new Promise<void>((r) => (onReady = r));
  const outcome = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      buffer += d;
      if (buffer.includes("ready\n")) onReady();
      const line = buffer.split("\n").find((l) => /^(owner|busy|error)/.test(l));
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`contender exited (${code}) before reporting: ${buffer}`)));
  });
  return { child, outcome, ready };
}

/** Starts two processes, lets them race for the lock at the same instant, and returns both outcomes. */
async function race(dataDir: string): Promise<string[]> {
  const pair = [contender(dataDir), contender(dataDir)];
  try {
    await Promise.all(pair.map((c) => c.ready));
    for (const c of pair) c.child.stdin!.write("go\n");
    return (await Promise.all(pair.map((c) => c.outcome))).sort();
  } finally {
    for (const c of pair) c.child.stdin!.end();
    await Promise.all(pair.map((c) => (c.child.exitCode === null ? new Promise((r) => c.child.once("exit", r)) : null)));
  }
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

function writeLock(dataDir: string, holder: object, ageMs: number) {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "server.lock");
  fs.writeFileSync(file, JSON.stringify(holder));
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(file, then, then);
}

const TRIALS = 20;

describe("DATA_DIR lock: two processes started together", () => {
  it(`has exactly one owner in ${TRIALS} trials on a fresh directory`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const dataDir = path.join(work, `fresh-${trial}`);
      fs.mkdirSync(dataDir);
      expect(await race(dataDir), `trial ${trial}`).toEqual(["busy", "owner"]);
    }
  }, 600_000);

  it(`has exactly one owner in ${TRIALS} trials on a stale lock (dead pid, or not refreshed for minutes)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const dataDir = path.join(work, `stale-${trial}`);
      // even trials: the holder's process is gone; odd ones: a live pid (ours) that stopped refreshing the lock
      if (trial % 2 === 0) writeLock(dataDir, { pid: deadPid(), host: os.hostname(), token: "dead" }, 0);
      else writeLock(dataDir, { pid: process.pid, host: "another-host", token: "silent" }, 10 * 60_000);
      expect(await race(dataDir), `trial ${trial}`).toEqual(["busy", "owner"]);
    }
  }, 600_000);

  it("leaves a fresh lock of a live owner alone, even one of a pid from another machine", async () => {
    const dataDir = path.join(work, "live");
    writeLock(dataDir, { pid: 999_999, host: "another-host", token: "live" }, 0);
    expect(await race(dataDir)).toEqual(["busy", "busy"]);
  }, 120_000);

  it("takes over a lock whose pid is its own (a restarted container is pid 1 again) and a legacy pid-only lock", () => {
    const ownPid = path.join(work, "own-pid");
    writeLock(ownPid, { pid: process.pid, host: os.hostname(), token: "previous-container" }, 0);
    const release = lockDataDir(ownPid);
    expect(JSON.parse(fs.readFileSync(path.join(ownPid, "server.lock"), "utf8")).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(path.join(ownPid, "server.lock"))).toBe(false);

    const legacy = path.join(work, "legacy");
    fs.mkdirSync(legacy);
    fs.writeFileSync(path.join(legacy, "server.lock"), String(deadPid()));
    lockDataDir(legacy)();
  });

  it("names the live owner's pid when refusing", () => {
    const dataDir = path.join(work, "named");
    writeLock(dataDir, { pid: 4242, host: "another-host", token: "x" }, 0);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(/in use by process 4242/);
  });
});
