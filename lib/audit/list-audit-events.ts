import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";

export type AuditPage = {
  entries: { id: number; occurredAt: Date; actor: string; action: string; target: string; detail: Record<string, unknown> }[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: number | null;
};

/** Newest first, keyset-paged by id, only the given organization's entries (null: platform). */
export async function listAuditEvents(input: { organizationId: string | null; before?: number; limit?: number }, db: Db): Promise<AuditPage> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const scope = input.organizationId === null ? isNull(auditLog.organizationId) : eq(auditLog.organizationId, input.organizationId);
  const rows = await db
    .select({
      id: auditLog.id,
      occurredAt: auditLog.occurredAt,
      actor: auditLog.actor,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
    })
    .from(auditLog)
    .where(input.before === undefined ? scope : and(scope, lt(auditLog.id, input.before)))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  return { entries, nextCursor: rows.length > limit ? entries[entries.length - 1].id : null };
}
