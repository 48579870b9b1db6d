import type { Db } from "@/db/client";
import { outbox } from "@/db/schema";
import { checkJobPayload, type JobPayload, type OutboxKind } from "./job-payloads";
import { wakeDispatcher } from "./wake-dispatcher";

export type { OutboxKind } from "./job-payloads";

/**
 * Adds durable work; call it with the transaction that writes the data the work is about. The
 * payload must pass its kind's schema (lib/outbox/job-payloads.ts): a malformed job is a bug of
 * the caller, refused before anything is written.
 */
export async function enqueue<K extends OutboxKind>(
  job: { kind: K; payload: JobPayload<K>; organizationId?: string; maxAttempts?: number; runAt?: Date },
  db: Db,
) {
  const checked = checkJobPayload(job.kind, job.payload);
  if (!checked.ok) throw new Error(`enqueue: ${checked.reason}`);
  const [row] = await db
    .insert(outbox)
    .values({
      kind: job.kind,
      payload: checked.payload,
      organizationId: job.organizationId,
      maxAttempts: job.maxAttempts ?? 10,
      runAt: job.runAt ?? new Date(),
    })
    .returning({ id: outbox.id });
  // The row is visible only after the caller commits; the dispatcher polls too, so an early wake is harmless.
  queueMicrotask(wakeDispatcher);
  return row.id;
}
