import type { AppConfig } from "@/lib/config";
import type { JobHandler } from "@/lib/outbox/run-dispatcher";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { sendSigningNotification } from "@/lib/notifications/send-signing-notification";
import { expireDueProcesses } from "./expire-due-processes";

/** Outbox handlers of the process API, for the dispatcher (lib/runtime/job-handlers.ts). */
export function processOutboxHandlers(config: AppConfig): Record<string, JobHandler> {
  const links = { secretKey: config.secretKey, publicUrl: config.publicUrl };
  const notification: JobHandler = (job, db) => sendSigningNotification(job, { db, settings: { ...links, transports: config } });
  return {
    "callback.deliver": (job, db) => deliverCallback(job, { db, settings: links }),
    "email.send": notification,
    "whatsapp.send": notification,
  };
}

/** The expiry sweep: every minute, pending processes past expire_at become `expired`. */
export const processExpirySweep = { everyMs: 60_000, run: expireDueProcesses };
