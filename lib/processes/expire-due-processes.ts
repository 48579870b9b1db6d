import { and, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processes } from "@/db/schema";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordProcessEvent } from "./record-process-event";

/**
 * Moves pending and approval-pending processes past their expiry to `expired` and queues their
 * callback. Runs before every read of an organization's processes and as a periodic sweep, so no
 * reader ever sees a stale `pending`.
 */
export async function expireDueProcesses(scope: { organizationId?: string; processId?: string; now?: Date } = {}, db: Db): Promise<number> {
  const now = scope.now ?? new Date();
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(processes)
      .set({ status: "expired", completedAt: now })
      .where(
        and(
          inArray(processes.status, ["pending", "approval_pending"]),
          lte(processes.expireAt, now),
          scope.organizationId ? eq(processes.organizationId, scope.organizationId) : undefined,
          scope.processId ? eq(processes.id, scope.processId) : undefined,
        ),
      )
      .returning({ id: processes.id, organizationId: processes.organizationId, urlCallback: processes.urlCallback });
    for (const row of expired) {
      await recordProcessEvent({ processId: row.id, organizationId: row.organizationId, kind: "expired" }, tx);
      if (row.urlCallback) await enqueue({ kind: "callback.deliver", payload: { processId: row.id, status: "expired" }, organizationId: row.organizationId }, tx);
    }
    return expired.length;
  });
}
