import { and, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processes } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { documentLinkUrl } from "./document-link";
import { expireDueProcesses } from "./expire-due-processes";
import { formatProcess } from "./format-process";
import { loadProcessRecords } from "./load-process-records";
import type { LinkSettings } from "./link-token";
import type { ListProcessesQuery } from "./schemas";

export type ProcessPage = {
  status: 200 | 206;
  body: { signatureProcesses: ReturnType<typeof formatProcess>[]; last_item: { processId: string; date: string } | null };
};

/**
 * GET /api/signature_processes: newest first, keyset-paged on (created_at, id) so every page costs
 * O(limit) whatever its depth. 206 with a cursor while more remains; 404 when nothing matches.
 */
export async function listProcesses(input: { organizationId: string; query: ListProcessesQuery }, db: Db, settings: LinkSettings): Promise<ProcessPage> {
  const { organizationId, query } = input;
  await expireDueProcesses({ organizationId }, db);
  const byOrganization = eq(processes.organizationId, organizationId);
  const where = query.process_id
    ? and(byOrganization, eq(processes.id, query.process_id))
    : and(
        byOrganization,
        query.status ? eq(processes.status, query.status) : undefined,
        query.creation_start ? gte(processes.createdAt, query.creation_start) : undefined,
        query.creation_end ? lte(processes.createdAt, query.creation_end) : undefined,
        query.last_item
          ? sql`(${processes.createdAt}, ${processes.id}) < (${new Date(query.last_item.date).toISOString()}::timestamptz, ${query.last_item.processId})`
          : undefined,
      );
  const limit = query.process_id ? 1 : query.limit;
  const rows = await db
    .select()
    .from(processes)
    .where(where)
    .orderBy(desc(processes.createdAt), desc(processes.id))
    .limit(limit + 1);
  if (rows.length === 0) throw new AppError("NOT_FOUND");
  const page = rows.slice(0, limit);
  const records = await loadProcessRecords(page, db);
  const now = Date.now();
  const signatureProcesses = records.map((r) => formatProcess(r, { dates: "iso", documentUrl: (d) => documentLinkUrl(d, settings, now) }));
  const last = page[page.length - 1];
  const more = rows.length > limit;
  return {
    status: more ? 206 : 200,
    body: { signatureProcesses, last_item: more ? { processId: last.id, date: last.createdAt.toISOString() } : null },
  };
}
