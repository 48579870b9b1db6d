import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outbox } from "@/db/schema";
import type { ClaimedJob } from "./claim-due-jobs";

/**
 * Every write a worker makes to its row is fenced by `(id, attempts)` and `status = 'running'`:
 * a worker whose lease expired and whose row was claimed again (a newer attempt) changes nothing.
 * Each returns whether this worker still held the row.
 */
const heldBy = (job: ClaimedJob) => and(eq(outbox.id, job.id), eq(outbox.attempts, job.attempts), eq(outbox.status, "running"));

export async function markJobDone(job: ClaimedJob, db: Db): Promise<boolean> {
  const rows = await db.update(outbox).set({ status: "done", doneAt: new Date(), lockedUntil: null, owner: null }).where(heldBy(job)).returning({ id: outbox.id });
  return rows.length > 0;
}

/** A failed attempt: retried at `retryAt`, or `dead` with the reason when `dead` is set. */
export async function markJobFailed({ job, ...outcome }: { job: ClaimedJob; reason: string; dead: boolean; retryAt: Date }, db: Db): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({
      status: outcome.dead ? "dead" : "pending",
      lastError: outcome.reason.slice(0, 1000),
      lockedUntil: null,
      owner: null,
      runAt: outcome.retryAt,
      doneAt: outcome.dead ? new Date() : null,
    })
    .where(heldBy(job))
    .returning({ id: outbox.id });
  return rows.length > 0;
}

/** Keeps the lease of a job that is still working (long signatures, slow receivers). */
export async function extendJobLease({ job, leaseSeconds }: { job: ClaimedJob; leaseSeconds: number }, db: Db): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(heldBy(job))
    .returning({ id: outbox.id });
  return rows.length > 0;
}
