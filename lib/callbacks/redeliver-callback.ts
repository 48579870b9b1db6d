import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processes } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordProcessEvent } from "@/lib/processes/record-process-event";

/**
 * Queues the process's callback again (dashboard "redeliver"): a NEW outbox row, so the earlier
 * job and its attempts stay in the delivery log untouched. The payload is built at delivery time;
 * the event, and so its `webhook-id`, is the one already sent, so a receiver that processed it
 * recognises the copy.
 */
export async function redeliverCallback(input: { organizationId: string; processId: string; actor: string }, db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const [process] = await tx
      .select({ id: processes.id, status: processes.status, urlCallback: processes.urlCallback })
      .from(processes)
      .where(and(eq(processes.id, input.processId), eq(processes.organizationId, input.organizationId)))
      .limit(1);
    if (!process) throw new AppError("NOT_FOUND");
    if (!process.urlCallback) throw new AppError("VALIDATION", "el proceso no tiene URL de callback", "urlCallback");
    const id = await enqueue({ kind: "callback.deliver", payload: { processId: process.id, status: process.status }, organizationId: input.organizationId }, tx);
    await recordProcessEvent({ processId: process.id, organizationId: input.organizationId, kind: "callback_requeued", actor: input.actor, detail: { outboxId: id } }, tx);
    return id;
  });
}
