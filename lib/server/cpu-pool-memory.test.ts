import { afterEach, describe, expect, test } from "vitest";
import type { CpuPool } from "@/lib/runtime/cpu-pool";
import { newAppPool } from "./worker-pools";
import type { CpuTasks } from "./cpu-task-contracts";

let pool: CpuPool<CpuTasks> | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Polls `condition` until it holds (generous limit: the CI machine is shared). */
async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("CpuPool memory", () => {
  test("each live worker reports its own heap; a pool without workers reports none", async () => {
    pool = newAppPool({ size: 2 });
    expect(await pool.workerMemory()).toEqual([]);
    await Promise.all([pool.run("diagnose-spin", { ms: 300 }), pool.run("diagnose-spin", { ms: 300 })]);
    const memory = await pool.workerMemory();
    expect(memory).toHaveLength(2);
    for (const worker of memory) {
      expect(worker.heapTotal).toBeGreaterThan(1024 * 1024);
      expect(worker.heapUsed).toBeLessThanOrEqual(worker.heapTotal);
      expect(worker.newSpace).toBeLessThan(worker.heapTotal);
    }
  }, 60_000);

  test("the young-generation limit holds under allocation, and the old-generation limit still stops a task", async () => {
    pool = newAppPool({ size: 1, maxYoungGenerationMb: 8, maxHeapMb: 64 });
    expect(await pool.run("diagnose-allocate", { megabytes: 16 })).toBe(16);
    const [worker] = await pool.workerMemory();
    expect(worker.newSpace).toBeLessThanOrEqual(8 * 1024 * 1024);
    const error = await pool.run("diagnose-allocate", { megabytes: 1024 }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("PDF_TOO_COMPLEX");
  }, 60_000);

  test("idle workers past `keep` exit, the kept one stays, and a new task starts one again", async () => {
    pool = newAppPool({ size: 2, idleExit: { afterMs: 300, keep: 1 } });
    const first = [pool.run("diagnose-spin", { ms: 300 }), pool.run("diagnose-spin", { ms: 300 })];
    expect(pool.workers).toBe(2);
    await Promise.all(first);
    await waitUntil(() => pool!.workers === 1);
    // the kept worker outlives several idle periods
    const kept = Date.now();
    await waitUntil(() => Date.now() - kept > 1_000);
    expect(pool.workers).toBe(1);
    const again = [pool.run("diagnose-spin", { ms: 200 }), pool.run("diagnose-spin", { ms: 200 })];
    expect(pool.workers).toBe(2);
    expect(await Promise.all(again)).toEqual(["done", "done"]);
  }, 60_000);

  test("a worker busy past the idle period is not ended", async () => {
    pool = newAppPool({ size: 1, idleExit: { afterMs: 100, keep: 0 } });
    expect(await pool.run("diagnose-spin", { ms: 800 })).toBe("done");
    await waitUntil(() => pool!.workers === 0);
  }, 60_000);
});
