import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processes, processSigners } from "@/db/schema";
import { expireDueProcesses } from "./expire-due-processes";
import { loadProcessRecords, type ProcessRecord } from "./load-process-records";
import type { ListProcessesQuery } from "./schemas";

/** Dashboard-only filters on top of the API query: a label name and a signer's ID number. */
export type ProcessPageFilters = { label?: string; signerDocId?: string };
export type ProcessCursor = { processId: string; date: string };

/**
 * One page of an organization's processes, newest first, keyset-paged on (created_at, id) so every
 * page costs O(limit) whatever its depth. Shared by the process API and the dashboard list.
 */
export async function findProcessPage(
  input: { organizationId: string; query: ListProcessesQuery; filters?: ProcessPageFilters },
  db: Db,
): Promise<{ records: ProcessRecord[]; next: ProcessCursor | null }> {
  const { organizationId, query, filters = {} } = input;
  await expireDueProcesses({ organizationId }, db);
  const byOrganization = eq(processes.organizationId, organizationId);
  const where = query.process_id
    ? and(byOrganization, eq(processes.id, query.process_id))
    : and(
        byOrganization,
        query.status ? eq(processes.status, query.status) : undefined,
        query.creation_start ? gte(processes.createdAt, query.creation_start) : undefined,
        query.creation_end ? lte(processes.createdAt, query.creation_end) : undefined,
        filters.label ? sql`${processes.labels} @> ${JSON.stringify([filters.label])}::jsonb` : undefined,
        filters.signerDocId
          ? sql`exists (select 1 from ${processSigners} where ${processSigners.processId} = ${processes.id} and ${processSigners.organizationId} = ${organizationId} and ${processSigners.docId} = ${filters.signerDocId})`
          : undefined,
        query.last_item
          ? sql`(${processes.createdAt}, ${processes.id}) < (${new Date(query.last_item.date).toISOString()}::timestamptz, ${query.last_item.processId})`
          : undefined,
      );
  const limit = query.process_id ? 1 : query.limit;
  const rows = await db
    .select()
    .from(processes)
    .where(where)
    // NULLS LAST, as the indexes are built (both columns are NOT NULL, so the order is the same):
    // plain DESC means NULLS FIRST, which no index serves, and every page sorted all the processes
    .orderBy(sql`${processes.createdAt} desc nulls last`, sql`${processes.id} desc nulls last`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const records = await loadProcessRecords(page, db);
  const last = page[page.length - 1];
  return { records, next: rows.length > limit ? { processId: last.id, date: last.createdAt.toISOString() } : null };
}
