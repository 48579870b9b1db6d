import type { JobHandler } from "@/lib/outbox/run-dispatcher";
import type { OutboxKind } from "@/lib/outbox/job-payloads";
import { forgetQuietLoginThrottles } from "@/lib/auth/throttle-logins";
import type { Services } from "@/lib/runtime/services";
import { stampSignJobHandler } from "@/lib/stamp-signing/run-stamp-sign-job";
import { signAfterReviewJobHandler } from "@/lib/identity-reviews/sign-after-review";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { sendSigningNotification } from "@/lib/notifications/send-signing-notification";
import { expireDueProcesses } from "@/lib/processes/expire-due-processes";

/** Every outbox kind and the handler that performs it; each reads its payload through the kind's schema. */
export function jobHandlers(services: Services): Record<OutboxKind, JobHandler> {
  const { config } = services;
  const links = { secretKey: config.secretKey, publicUrl: config.publicUrl };
  const notification: JobHandler = (job, db) => sendSigningNotification(job, { db, settings: { ...links, transports: config } });
  return {
    "stamp.sign": stampSignJobHandler(services),
    "identity.sign_after_review": signAfterReviewJobHandler(services),
    "callback.deliver": (job, db) => deliverCallback(job, { db, settings: links }),
    "email.send": notification,
    "whatsapp.send": notification,
  };
}

/** The expiry sweep: every minute, pending processes past expire_at become `expired`. */
export const PROCESS_EXPIRY_EVERY_MS = 60_000;

/** Periodic work (expiry sweeps). */
export function periodicSweeps(services: Services): { everyMs: number; run: () => Promise<unknown> }[] {
  return [
    { everyMs: PROCESS_EXPIRY_EVERY_MS, run: () => expireDueProcesses({}, services.db) },
    // throttle rows of quiet keys carry no information any more; sprays of invented accounts must not pile up
    { everyMs: 10 * 60 * 1000, run: () => forgetQuietLoginThrottles(services.db) },
  ];
}
