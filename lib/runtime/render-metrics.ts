import { and, count, inArray, lte, min } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outbox } from "@/db/schema";
import type { WorkerPools } from "./services";
import { metrics } from "@/lib/metrics/metrics";

/** The Prometheus text exposition: counters kept as things happen, plus what is read at scrape time. */
export async function renderMetrics({ db, pools }: { db: Db; pools: WorkerPools }): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const byStatus = await db.select({ status: outbox.status, jobs: count() }).from(outbox).where(inArray(outbox.status, ["pending", "running", "dead"])).groupBy(outbox.status);
  for (const status of ["pending", "running", "dead"] as const) m.outboxJobs.set({ status }, byStatus.find((row) => row.status === status)?.jobs ?? 0);
  // age of the oldest job that is due now: a growing age means the dispatcher is not keeping up
  const [oldest] = await db.select({ at: min(outbox.runAt) }).from(outbox).where(and(inArray(outbox.status, ["pending", "running"]), lte(outbox.runAt, new Date())));
  m.outboxOldestAge.set(oldest?.at ? Math.max(0, (Date.now() - new Date(oldest.at).getTime()) / 1000) : 0);
  for (const [pool, instance] of [["cpu", pools.cpu], ["face", pools.face], ["revocation", pools.revocation]] as const) {
    m.poolQueue.set({ pool }, instance.queueLength);
    m.poolBusy.set({ pool }, instance.busyWorkers);
    // what each pool's workers add to the process RSS (the main thread's heap is firmaviva_nodejs_heap_*)
    const workers = await instance.workerMemory();
    m.poolWorkers.set({ pool }, workers.length);
    for (const part of ["heapTotal", "heapUsed", "newSpace", "code", "external"] as const) {
      m.poolWorkerMemory.set({ pool, part: part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) }, workers.reduce((sum, worker) => sum + worker[part], 0));
    }
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
