import type { JobHandler } from "@/lib/outbox/run-dispatcher";
import { forgetQuietLoginThrottles } from "@/lib/auth/throttle-logins";
import type { Services } from "@/lib/runtime/services";
import { stampSignJobHandler } from "@/lib/stamp-signing/run-stamp-sign-job";
import { processExpirySweep, processOutboxHandlers } from "@/lib/processes/outbox-handlers";
import { signAfterReviewJobHandler } from "@/lib/identity-assurance/sign-after-review";

/** Every outbox kind and the handler that performs it. */
export function jobHandlers(services: Services): Record<string, JobHandler> {
  return { "stamp.sign": stampSignJobHandler(services), "identity.sign_after_review": signAfterReviewJobHandler(services), ...processOutboxHandlers(services.config) };
}

/** Periodic work (expiry sweeps). */
export function periodicSweeps(services: Services): { everyMs: number; run: () => Promise<unknown> }[] {
  return [
    { everyMs: processExpirySweep.everyMs, run: () => processExpirySweep.run({}, services.db) },
    // throttle rows of quiet keys carry no information any more; sprays of invented accounts must not pile up
    { everyMs: 10 * 60 * 1000, run: () => forgetQuietLoginThrottles(services.db) },
  ];
}
