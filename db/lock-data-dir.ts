import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid}; stop it first, ` +
        `or use PostgreSQL (DATABASE_URL) to run admin commands beside the server`,
    );
    this.name = "DataDirInUseError";
  }
}

type LockHolder = { pid: number; host: string; token: string };

/** The owner touches the lock this often; a lock untouched for STALE_MS has no live owner. */
const REFRESH_MS = 5_000;
const STALE_MS = 30_000;
/** The take-over guard is held for a few file operations; older than this, its holder died. */
const GUARD_STALE_MS = 10_000;
const WAIT_LIMIT_MS = 15_000;
/** Locks this process holds, by lock file: opening the same directory twice in one process is not a second owner. */
const heldHere = new Map<string, string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A recycled pid that is not a node/next process cannot hold our database (next renames its process title).
  try {
    return /node|next/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch {
    return true;
  }
}

function readHolder(file: string): { holder: LockHolder; mtimeMs: number } | null {
  try {
    const text = fs.readFileSync(file, "utf8");
    const mtimeMs = fs.statSync(file).mtimeMs;
    // a lock written by an older version holds only the pid
    const holder = /^\d+$/.test(text.trim()) ? { pid: Number(text.trim()), host: os.hostname(), token: `legacy:${text.trim()}` } : (JSON.parse(text) as LockHolder);
    return { holder, mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    // unreadable content cannot come from link() of a complete file: judge it by its age alone
    return { holder: { pid: 0, host: "", token: "unreadable" }, mtimeMs: fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
  }
}

/**
 * A lock is stale when its owner stopped refreshing it (mtime), or, on this host, when its process
 * is gone or the pid is our own (a restarted container is pid 1 again): a pid alone is not trusted,
 * since pids are reused and containers sharing a volume see different pid spaces.
 */
function isStale(found: { holder: LockHolder; mtimeMs: number }, token: string): boolean {
  if (Date.now() - found.mtimeMs > STALE_MS) return true;
  const { holder } = found;
  if (holder.token === token || holder.host !== os.hostname()) return false;
  return holder.pid === process.pid || !(holder.pid > 0 && isAlive(holder.pid));
}

function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `work` as the only process taking over a stale lock (a guard file created with `wx`). */
function withTakeOverGuard(lockFile: string, work: () => void): boolean {
  const guard = `${lockFile}.takeover`;
  try {
    fs.writeFileSync(guard, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (fs.statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > GUARD_STALE_MS) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    work();
  } finally {
    fs.rmSync(guard, { force: true });
  }
  return true;
}

/**
 * Takes an exclusive lock on DATA_DIR for this process, because two processes on one PGlite
 * directory corrupt it silently. The lock file is written complete under a temporary name and put
 * in place with link(), which fails if a lock exists: nobody ever reads a half-written lock. The
 * owner refreshes its mtime; a stale lock is removed under a take-over guard, and only after
 * checking it is still the same stale lock, so two processes never both own the directory. An
 * owner that finds its lock taken (it was stalled past STALE_MS) stops at once.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "server.lock");
  const mine = heldHere.get(lockFile);
  if (mine && readHolder(lockFile)?.holder.token === mine) return () => {}; // this process already owns it
  const token = crypto.randomUUID();
  const temp = `${lockFile}.${token}.tmp`;
  fs.writeFileSync(temp, JSON.stringify({ pid: process.pid, host: os.hostname(), token } satisfies LockHolder), { mode: 0o600 });
  try {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      try {
        fs.linkSync(temp, lockFile);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const found = readHolder(lockFile);
      if (found && !isStale(found, token)) throw new DataDirInUseError(dataDir, found.holder.pid);
      if (found) {
        withTakeOverGuard(lockFile, () => {
          const again = readHolder(lockFile);
          if (again && again.holder.token === found.holder.token && isStale(again, token)) fs.rmSync(lockFile, { force: true });
        });
      }
      if (Date.now() > deadline) throw new Error(`could not lock ${dataDir}: its lock is being taken over by another process`);
      pause(20 + Math.random() * 30);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }

  heldHere.set(lockFile, token);
  const ownsLock = () => readHolder(lockFile)?.holder.token === token;
  const refresh = setInterval(() => {
    if (!ownsLock()) {
      console.error(`\nStopping: the lock on ${dataDir} was taken over by another process; two owners would corrupt the database.\n`);
      process.exit(1);
    }
    const now = new Date();
    fs.utimesSync(lockFile, now, now);
  }, REFRESH_MS);
  refresh.unref();
  const release = () => {
    clearInterval(refresh);
    if (heldHere.get(lockFile) === token) heldHere.delete(lockFile);
    if (ownsLock()) fs.rmSync(lockFile, { force: true });
  };
  process.once("exit", release);
  return release;
}
