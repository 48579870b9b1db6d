import { CpuPool } from "./cpu-pool";
import type { CpuTaskTable } from "./cpu-task";
import { processSingleton } from "@/lib/process-wide/singleton";

/*
 * The process-wide pools. Route handlers and instrumentation are bundled apart, so each lives on
 * globalThis; sizes come from the environment (validated in lib/config/env-schema.ts). A caller
 * names the contracts it runs (`cpuPool<VerificationTasks>()`, declared beside its domain); the
 * worker implements every contract (lib/server/cpu-tasks.ts, checked by the compiler).
 */

/**
 * Warm, each main-pool worker kept a 32 MB young generation (V8's default grown under load; 64 of
 * the pool's 157 MB heap with 2 workers, bench:startup); a task's garbage fits in far less.
 */
const CPU_WORKER_YOUNG_GENERATION_MB = 16;

/** The main pool: signing, verification, PKCS#12 imports; the public lane is the anonymous verifier's share. */
export function cpuPool<Tasks extends CpuTaskTable = CpuTaskTable>(): CpuPool<Tasks> {
  return processSingleton(
    "firmaviva.cpu-pool",
    (): CpuPool =>
      new CpuPool({
        name: "cpu",
        size: numberFromEnv("CPU_WORKERS"),
        maxQueue: numberFromEnv("CPU_QUEUE_LIMIT"),
        taskTimeoutMs: numberFromEnv("CPU_TASK_TIMEOUT_MS"),
        maxYoungGenerationMb: CPU_WORKER_YOUNG_GENERATION_MB,
        // one stays for readiness and the next request; the first burst after idle waits for the second to boot (bench:startup)
        idleExit: { afterMs: 60_000, keep: 1 },
        publicLane: { running: numberFromEnv("VERIFY_WORKERS"), queued: numberFromEnv("VERIFY_QUEUE_LIMIT") },
      }),
  );
}

/** Facial tries one organization may have waiting for the face worker. */
export const FACE_QUEUE_PER_ORGANIZATION = 8;

/**
 * Face analysis gets its own single worker: the models (~300 MB with the WASM runtime) load once
 * there, on first use, instead of in every worker of the main pool. Every organization shares it,
 * so tries wait in per-organization lines served in turn: one organization's load can neither fill
 * the queue for the others nor put them behind all of its own tries.
 */
export function facePool<Tasks extends CpuTaskTable = CpuTaskTable>(): CpuPool<Tasks> {
  const maxQueue = Math.max(numberFromEnv("CPU_QUEUE_LIMIT") ?? 32, 4 * FACE_QUEUE_PER_ORGANIZATION);
  return processSingleton(
    "firmaviva.face-pool",
    (): CpuPool => new CpuPool({
        name: "face",
        size: 1,
        maxQueue,
        maxQueuePerOwner: FACE_QUEUE_PER_ORGANIZATION,
        taskTimeoutMs: 120_000,
        maxHeapMb: 1024,
        // the models' ~300 MB go back to the system once no facial check came for a while
        idleExit: { afterMs: 10 * 60_000, keep: 0 },
      }),
  );
}

/**
 * Outside CRLs are parsed in their own single worker: the request for them comes from a signing
 * task that holds a worker of the main pool while it waits, so using that pool could deadlock it.
 */
export function revocationPool<Tasks extends CpuTaskTable = CpuTaskTable>(): CpuPool<Tasks> {
  return processSingleton(
    "firmaviva.revocation-pool",
    (): CpuPool => new CpuPool({ name: "revocation", size: 1, maxQueue: numberFromEnv("CPU_QUEUE_LIMIT"), taskTimeoutMs: 30_000, maxHeapMb: 512, idleExit: { afterMs: 60_000, keep: 0 } }),
  );
}

function numberFromEnv(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
