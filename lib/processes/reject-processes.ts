import type { Db } from "@/db/client";
import type { ProcessCaller } from "@/lib/auth/verify-process-token";
import { isAppError } from "@/lib/errors";
import { assertOpen, concludeProcess, lockProcess } from "./conclude-process";
import { expireDueProcesses } from "./expire-due-processes";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { RejectAnswer } from "./schemas";

/**
 * DELETE /api/signature_processes (decision 14): each id is rejected in its own transaction and
 * queues its callback. A list answers the ids that failed; a single id that fails is an error.
 */
export async function rejectProcesses(input: { caller: ProcessCaller; processIds: string[] }, db: Db): Promise<RejectAnswer> {
  const { caller } = input;
  const ids = [...new Set(input.processIds)];
  await expireDueProcesses({ organizationId: caller.organizationId }, db);
  const errors: RejectAnswer["errors"] = [];
  for (const processId of ids) {
    try {
      await db.transaction(async (tx) => {
        const process = await lockProcess({ organizationId: caller.organizationId, processId }, tx);
        assertOpen(process);
        await concludeProcess({ process, status: "rejected", actor: caller.clientname }, tx);
        await recordAuditEvent({ organizationId: process.organizationId, actor: caller.clientname, action: "process.rejected", target: process.id }, tx);
      });
    } catch (error) {
      if (!isAppError(error) || (error.code !== "NOT_FOUND" && error.code !== "FORBIDDEN")) throw error;
      if (ids.length === 1) throw error;
      errors.push({ process_id: processId, error: error.code === "FORBIDDEN" ? "forbidden" : "not found" });
    }
  }
  return { errors };
}

