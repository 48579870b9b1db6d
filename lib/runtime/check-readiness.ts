import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import type { CpuPool } from "./cpu-pool";
import type { DiagnosticTasks } from "./diagnostic-tasks";

type CheckResult = "ok" | "idle" | "failed" | "timeout";
export type Readiness = { status: "ok" | "error"; checks: { database: CheckResult; blobs: CheckResult; cpuWorkers: CheckResult; faceWorkers: CheckResult } };

const CHECK_LIMIT_MS = 10_000;

/**
 * Whether this instance can serve: the database answers a query, the blob store answers a read,
 * and a worker of each pool answers a task. The face pool is "idle" until its first facial check
 * (it loads its models then), which does not make the instance unready. Each check has 10 s (a worker's first boot on a busy machine takes a few).
 */
export async function checkReadiness(deps: {
  db: Pick<Db, "execute">;
  blobs: Pick<BlobStore, "get">;
  cpuPool: Pick<CpuPool<DiagnosticTasks>, "run">;
  facePool: Pick<CpuPool<DiagnosticTasks>, "run" | "started">;
  limitMs?: number;
}): Promise<Readiness> {
  const limitMs = deps.limitMs ?? CHECK_LIMIT_MS;
  const [database, blobs, cpuWorkers, faceWorkers] = await Promise.all([
    within(() => deps.db.execute(sql`select 1`), limitMs),
    // a key that never exists: a read that reaches the store and comes back empty
    within(() => deps.blobs.get("health/readiness-probe"), limitMs),
    within(() => deps.cpuPool.run("ping", undefined), limitMs),
    deps.facePool.started ? within(() => deps.facePool.run("ping", undefined), limitMs) : Promise.resolve("idle" as const),
  ]);
  const checks = { database, blobs, cpuWorkers, faceWorkers };
  return { status: Object.values(checks).every((c) => c === "ok" || c === "idle") ? "ok" : "error", checks };
}

async function within(check: () => Promise<unknown>, limitMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<CheckResult>((resolve) => (timer = setTimeout(() => resolve("timeout"), limitMs)));
  try {
    return await Promise.race([Promise.resolve().then(check).then(() => "ok" as const, () => "failed" as const), limit]);
  } finally {
    clearTimeout(timer);
  }
}
