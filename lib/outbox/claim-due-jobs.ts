import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { outbox } from "@/db/schema";

export type ClaimedJob = typeof outbox.$inferSelect;

/**
 * Claims due rows with a lease. `FOR UPDATE SKIP LOCKED` lets several instances share the table;
 * a row whose lease expired (its instance died mid-job) is claimed again.
 */
export async function claimDueJobs(db: Db, limit: number, leaseSeconds: number): Promise<ClaimedJob[]> {
  const result = await db.execute(sql`
    update outbox set status = 'running', attempts = attempts + 1,
      locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id in (
      select id from outbox
      where (status = 'pending' and run_at <= now()) or (status = 'running' and locked_until < now())
      order by run_at
      limit ${limit}
      for update skip locked
    )
    returning id, organization_id, kind, payload, status, attempts, max_attempts, run_at, locked_until, last_error, created_at, done_at`);
  const rows = (Array.isArray(result) ? result : (result as { rows: Record<string, unknown>[] }).rows) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: Number(r.id),
    organizationId: (r.organization_id as string | null) ?? null,
    kind: r.kind as string,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    status: r.status as ClaimedJob["status"],
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: new Date(r.run_at as string),
    lockedUntil: r.locked_until ? new Date(r.locked_until as string) : null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    doneAt: r.done_at ? new Date(r.done_at as string) : null,
  }));
}
