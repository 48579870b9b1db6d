import type { Db } from "@/db/client";
import { startDispatcher, type DispatcherOptions, type JobHandler } from "@/lib/outbox/run-dispatcher";
import { processSingleton } from "@/lib/process-wide/singleton";

/**
 * Starts the outbox dispatcher and periodic sweeps once per process. Handlers come from each
 * domain; registering them here keeps start-up in one place.
 */
export function startBackgroundWork(
  { sweeps = [], ...dispatcher }: DispatcherOptions & { handlers: Record<string, JobHandler>; sweeps?: { everyMs: number; run: () => Promise<unknown> }[] },
  db: Db,
) {
  return processSingleton("firmaviva.background", () => {
    const stopDispatcher = startDispatcher(dispatcher, db);
    const timers = sweeps.map((sweep) => {
      const timer = setInterval(() => void sweep.run().catch(() => undefined), sweep.everyMs);
      timer.unref();
      return timer;
    });
    return () => {
      stopDispatcher();
      timers.forEach(clearInterval);
    };
  });
}
