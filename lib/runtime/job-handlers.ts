import type { JobHandler } from "@/lib/outbox/run-dispatcher";
import type { Services } from "./services";

/** Every outbox kind and the handler that performs it. */
export function jobHandlers(_services: Services): Record<string, JobHandler> {
  return {};
}

/** Periodic work (expiry sweeps). */
export function periodicSweeps(_services: Services): { everyMs: number; run: () => Promise<unknown> }[] {
  return [];
}
