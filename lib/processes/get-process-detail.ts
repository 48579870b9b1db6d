import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processEvents, processes } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { expireDueProcesses } from "./expire-due-processes";
import { loadProcessRecords, type ProcessRecord } from "./load-process-records";

export type ProcessEventRow = typeof processEvents.$inferSelect;
export type ProcessDetail = ProcessRecord & { events: ProcessEventRow[]; facialScores: Record<string, number> };

/** One process of the organization with its documents, signers and timeline; another organization's id is not found. */
export async function getProcessDetail(input: { organizationId: string; processId: string }, db: Db): Promise<ProcessDetail> {
  await expireDueProcesses({ organizationId: input.organizationId, processId: input.processId }, db);
  const [row] = await db
    .select()
    .from(processes)
    .where(and(eq(processes.id, input.processId), eq(processes.organizationId, input.organizationId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND");
  const [[record], events] = await Promise.all([
    loadProcessRecords([row], db),
    db
      .select()
      .from(processEvents)
      .where(and(eq(processEvents.processId, row.id), eq(processEvents.organizationId, input.organizationId)))
      .orderBy(asc(processEvents.createdAt), asc(processEvents.id)),
  ]);
  // the matcher's score lives on the timeline (sign_data keeps only the decision); the latest try wins
  const facialScores: Record<string, number> = {};
  for (const e of events) {
    if (e.kind === "facial_recorded" && e.signerId && typeof e.detail.score === "number") facialScores[e.signerId] = e.detail.score;
  }
  return { ...record, events, facialScores };
}
