import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outbox } from "@/db/schema";
import { logError } from "@/lib/runtime/log";
import { claimDueJobs, type ClaimedJob } from "./claim-due-jobs";
import { onWake } from "./wake-dispatcher";

export type JobHandler = (job: ClaimedJob, db: Db) => Promise<void>;

/** Thrown by a handler when retrying cannot help (bad input): the row goes straight to `dead`. */
export class PermanentJobFailure extends Error {}

const LEASE_SECONDS = 120;
const POLL_MS = 1000;

/** Exponential backoff: 30 s, 1 min, 2 min … capped at 6 h; ten tries span about a day. */
export function retryDelayMs(attempt: number, baseMs = 30_000): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 6 * 3600_000);
}

export type DispatcherOptions = { concurrency?: number; retryBaseMs?: number };

/**
 * The in-process dispatcher: claims due outbox rows and runs their handler. A job is marked done
 * only after its handler succeeded; one that fails is retried with backoff until maxAttempts.
 */
export function startDispatcher(db: Db, handlers: Record<string, JobHandler>, options: DispatcherOptions = {}) {
  const concurrency = options.concurrency ?? 2;
  let running = 0;
  let stopped = false;
  let scheduled: NodeJS.Timeout | undefined;

  const tick = async () => {
    if (stopped || running >= concurrency) return;
    const jobs = await claimDueJobs(db, concurrency - running, LEASE_SECONDS).catch((error) => {
      logError("outbox: claim failed", error);
      return [];
    });
    for (const job of jobs) {
      running++;
      void runJob(job).finally(() => {
        running--;
        void tick();
      });
    }
  };

  const runJob = async (job: ClaimedJob) => {
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new PermanentJobFailure(`no handler for ${job.kind}`);
      await handler(job, db);
      await db.update(outbox).set({ status: "done", doneAt: new Date(), lockedUntil: null }).where(eq(outbox.id, job.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const dead = error instanceof PermanentJobFailure || job.attempts >= job.maxAttempts;
      if (!(error instanceof PermanentJobFailure)) logError("outbox: job failed", error, { id: job.id, kind: job.kind, attempt: job.attempts });
      await db
        .update(outbox)
        .set({
          status: dead ? "dead" : "pending",
          lastError: message.slice(0, 1000),
          lockedUntil: null,
          runAt: new Date(Date.now() + retryDelayMs(job.attempts, options.retryBaseMs)),
        })
        .where(eq(outbox.id, job.id))
        .catch((e) => logError("outbox: could not record failure", e));
    }
  };

  const loop = () => {
    if (stopped) return;
    void tick().finally(() => {
      scheduled = setTimeout(loop, POLL_MS);
      scheduled.unref();
    });
  };
  onWake(() => void tick());
  loop();
  return () => {
    stopped = true;
    clearTimeout(scheduled);
  };
}
