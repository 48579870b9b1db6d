import { desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processEvents, processes, processSigners } from "@/db/schema";
import type { ProcessEventRow } from "@/lib/processes/get-process-detail";
import type { SignerRow } from "@/lib/processes/load-process-records";

export type RecentProcessEvent = { event: ProcessEventRow; description: string; signers: SignerRow[] };

/**
 * The organization's latest timeline events across its processes, newest first, each with what
 * describeProcessEvent needs to say it (the event's signer) and the process it belongs to.
 */
export async function listRecentProcessEvents(input: { organizationId: string; limit: number }, deps: { db: Db }): Promise<RecentProcessEvent[]> {
  const { db } = deps;
  const rows = await db
    .select({ event: processEvents, description: processes.description })
    .from(processEvents)
    .innerJoin(processes, eq(processes.id, processEvents.processId))
    .where(eq(processEvents.organizationId, input.organizationId))
    .orderBy(desc(processEvents.id))
    .limit(Math.min(Math.max(input.limit, 1), 50));
  const signerIds = [...new Set(rows.flatMap(({ event }) => (event.signerId ? [event.signerId] : [])))];
  const signers = signerIds.length === 0 ? [] : await db.select().from(processSigners).where(inArray(processSigners.id, signerIds));
  return rows.map(({ event, description }) => ({ event, description, signers: signers.filter((s) => s.id === event.signerId) }));
}
