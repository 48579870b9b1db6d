import type { Db } from "@/db/client";
import { outbox } from "@/db/schema";
import { wakeDispatcher } from "./wake-dispatcher";

export type OutboxKind = "stamp.sign" | "callback.deliver" | "email.send" | "whatsapp.send" | "identity.sign_after_review";

/** Adds durable work; call it with the transaction that writes the data the work is about. */
export async function enqueue(
  job: { kind: OutboxKind; payload: Record<string, unknown>; organizationId?: string; maxAttempts?: number; runAt?: Date },
  db: Db,
) {
  const [row] = await db
    .insert(outbox)
    .values({
      kind: job.kind,
      payload: job.payload,
      organizationId: job.organizationId,
      maxAttempts: job.maxAttempts ?? 10,
      runAt: job.runAt ?? new Date(),
    })
    .returning({ id: outbox.id });
  // The row is visible only after the caller commits; the dispatcher polls too, so an early wake is harmless.
  queueMicrotask(wakeDispatcher);
  return row.id;
}
