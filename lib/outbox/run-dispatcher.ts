import type { Db } from "@/db/client";
import { logError, logInfo } from "@/lib/runtime/log";
import { buryAbandonedJobs, claimDueJobs, releaseLeasesOf, type ClaimedJob } from "./claim-due-jobs";
import { extendJobLease, markJobDone, markJobFailed } from "./finish-job";
import { onWake } from "./wake-dispatcher";

/**
 * Performs one job. `onDead` (optional) runs once when the job is given up for good, whatever the
 * cause (a permanent failure, the last attempt failing, or its worker dying on the last attempt),
 * so the domain can record the outcome (e.g. a stamp transaction becomes `failed`).
 */
export type JobHandler = ((job: ClaimedJob, db: Db) => Promise<void>) & {
  onDead?: (job: ClaimedJob, death: { reason: string; error?: unknown }, db: Db) => Promise<void>;
};

/** Thrown by a handler when retrying cannot help (bad input): the row goes straight to `dead`. */
export class PermanentJobFailure extends Error {}

const POLL_MS = 1000;

/** Exponential backoff: 30 s, 1 min, 2 min … capped at 6 h; ten tries span about a day. */
export function retryDelayMs(attempt: number, baseMs = 30_000): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 6 * 3600_000);
}

export type DispatcherOptions = {
  concurrency?: number;
  retryBaseMs?: number;
  leaseSeconds?: number;
  /** this process's lease owner, and a LIKE pattern of the owners its earlier processes used */
  owner?: { owner: string; previousOwners: string };
};

/**
 * The in-process dispatcher: claims due outbox rows and runs their handler. A job is marked done
 * only after its handler succeeded; one that fails is retried with backoff until maxAttempts.
 * Delivery is at least once: a worker that dies after its side effect but before `done` is redone.
 */
export function startDispatcher({ handlers, ...options }: DispatcherOptions & { handlers: Record<string, JobHandler> }, db: Db) {
  const concurrency = options.concurrency ?? 2;
  const leaseSeconds = options.leaseSeconds ?? 120;
  const { owner, previousOwners } = options.owner ?? { owner: `local#${process.pid}`, previousOwners: "local#%" };
  let running = 0;
  let stopped = false;
  let scheduled: NodeJS.Timeout | undefined;

  const bury = async (job: ClaimedJob, death: { reason: string; error?: unknown }) => {
    logError("outbox: job is dead", undefined, { id: job.id, kind: job.kind, attempts: job.attempts, reason: death.reason });
    await handlers[job.kind]?.onDead?.(job, death, db).catch((e) => logError("outbox: onDead failed", e, { id: job.id }));
  };

  const tick = async () => {
    if (stopped || running >= concurrency) return;
    try {
      for (const job of await buryAbandonedJobs(db)) await bury(job, { reason: job.lastError ?? "worker stopped" });
      const jobs = await claimDueJobs({ limit: concurrency - running, leaseSeconds, owner }, db);
      for (const job of jobs) {
        running++;
        void runJob(job).finally(() => {
          running--;
          void tick();
        });
      }
    } catch (error) {
      logError("outbox: claim failed", error);
    }
  };

  const runJob = async (job: ClaimedJob) => {
    const handler = handlers[job.kind];
    const heartbeat = setInterval(() => {
      void extendJobLease({ job, leaseSeconds }, db).then(
        (held) => held || logError("outbox: lease lost while working", undefined, { id: job.id, attempt: job.attempts }),
        () => undefined,
      );
    }, (leaseSeconds * 1000) / 3);
    heartbeat.unref();
    try {
      if (!handler) throw new PermanentJobFailure(`no handler for ${job.kind}`);
      await handler(job, db);
      clearInterval(heartbeat);
      if (!(await markJobDone(job, db))) logInfo("outbox: a newer attempt holds the job; this result is not recorded", { id: job.id, attempt: job.attempts });
    } catch (error) {
      clearInterval(heartbeat);
      const reason = error instanceof Error ? error.message : String(error);
      const dead = error instanceof PermanentJobFailure || job.attempts >= job.maxAttempts;
      if (!(error instanceof PermanentJobFailure)) logError("outbox: job failed", error, { id: job.id, kind: job.kind, attempt: job.attempts });
      const retryAt = new Date(Date.now() + retryDelayMs(job.attempts, options.retryBaseMs));
      const held = await markJobFailed({ job, reason, dead, retryAt }, db).catch((e) => {
        logError("outbox: could not record failure", e);
        return false;
      });
      if (held && dead) await bury(job, { reason, error });
    } finally {
      clearInterval(heartbeat);
    }
  };

  const loop = () => {
    if (stopped) return;
    void tick().finally(() => {
      scheduled = setTimeout(loop, POLL_MS);
      scheduled.unref();
    });
  };

  const start = async () => {
    try {
      const { released, dead } = await releaseLeasesOf({ ownerPattern: previousOwners, except: owner }, db);
      if (released > 0) logInfo("outbox: released the leases of this instance's previous process", { released, dead: dead.length });
      for (const job of dead) await bury(job, { reason: job.lastError ?? "worker stopped" });
    } catch (error) {
      logError("outbox: could not release earlier leases", error);
    }
    onWake(() => void tick());
    loop();
  };
  void start();
  return () => {
    stopped = true;
    clearTimeout(scheduled);
  };
}
