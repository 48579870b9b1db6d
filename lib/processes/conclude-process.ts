import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processes, type ProcessStatus } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/outbox/enqueue";
import { recordProcessEvents, type ProcessEvent } from "./record-process-event";
import type { ProcessRow } from "./load-process-records";

/** States that can still be modified, notified or rejected (decision 11). */
export const OPEN_STATUSES = ["pending", "approval_pending"] as const;

/**
 * Locks an organization's process row for the rest of the transaction. Another organization's id
 * is simply not found (404), never forbidden. `NO KEY UPDATE`, not `UPDATE`: foreign-key checks of
 * concurrent inserts (timeline events, outbox handlers) take KEY SHARE and must not deadlock with us.
 */
export async function lockProcess({ organizationId, processId }: { organizationId: string; processId: string }, db: Db): Promise<ProcessRow> {
  const [row] = await db
    .select()
    .from(processes)
    .where(and(eq(processes.id, processId), eq(processes.organizationId, organizationId)))
    .for("no key update");
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

const closedAs: Record<string, string> = { signed: "firmado", rejected: "rechazado", expired: "vencido" };

export function assertOpen(process: ProcessRow) {
  if (!(OPEN_STATUSES as readonly string[]).includes(process.status)) {
    throw new AppError("FORBIDDEN", `el proceso está ${closedAs[process.status] ?? process.status} y ya no admite cambios`);
  }
}

/**
 * Ends a process (signed, rejected) and queues its callback in the caller's transaction. The
 * status guard makes a concurrent second conclusion a no-op instead of a second callback.
 */
export async function concludeProcess(
  input: {
    process: ProcessRow;
    status: Extract<ProcessStatus, "signed" | "rejected">;
    actor?: string | null;
    signerId?: string | null;
    detail?: Record<string, unknown>;
    /** For a signed process: the lowest PAdES level its documents reach (B-LTA when all is well). */
    padesLevel?: string | null;
    /** Events of the change that concludes it (the last signature), recorded before its own in one statement, or alone when it was already concluded. */
    precededBy?: ProcessEvent[];
  },
  db: Db,
): Promise<boolean> {
  const now = new Date();
  const updated = await db
    .update(processes)
    .set({ status: input.status, completedAt: now, ...(input.padesLevel !== undefined ? { padesLevel: input.padesLevel } : {}) })
    .where(and(eq(processes.id, input.process.id), inArray(processes.status, [...OPEN_STATUSES])))
    .returning({ id: processes.id });
  const preceding = input.precededBy ?? [];
  if (updated.length === 0) {
    await recordProcessEvents(preceding, db);
    return false;
  }
  await recordProcessEvents(
    [
      ...preceding,
      {
        processId: input.process.id,
        organizationId: input.process.organizationId,
        kind: input.status === "signed" ? "completed" : "rejected",
        actor: input.actor,
        signerId: input.signerId,
        detail: input.detail,
      },
    ],
    db,
  );
  if (input.process.urlCallback) {
    await enqueue({ kind: "callback.deliver", payload: { processId: input.process.id, status: input.status }, organizationId: input.process.organizationId }, db);
  }
  return true;
}

