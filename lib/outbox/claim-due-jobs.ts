import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { outbox } from "@/db/schema";
import { executedRows } from "@/db/executed-rows";

export type ClaimedJob = typeof outbox.$inferSelect;

const COLUMNS = sql.raw("id, organization_id, kind, payload, status, attempts, max_attempts, run_at, locked_until, owner, last_error, created_at, done_at");

/**
 * Claims due rows: each claim is an attempt (`attempts + 1`) held by `owner` until the lease ends.
 * `FOR UPDATE SKIP LOCKED` lets several instances share the table. A `running` row whose lease
 * expired lost its worker: it is claimed again, which counts as its next attempt (rows out of
 * attempts are buried by `buryAbandonedJobs` first, so a job that kills its worker cannot loop).
 */
export async function claimDueJobs(input: { limit: number; leaseSeconds: number; owner: string }, db: Db): Promise<ClaimedJob[]> {
  return rowsOf(
    await db.execute(sql`
      update outbox set status = 'running', attempts = attempts + 1, owner = ${input.owner},
        locked_until = now() + make_interval(secs => ${input.leaseSeconds}),
        last_error = case when status = 'running' then ${abandonedReason(sql`attempts`, sql`max_attempts`)} else last_error end
      where id in (
        select id from outbox
        where (status = 'pending' and run_at <= now())
           or (status = 'running' and locked_until < now() and attempts < max_attempts)
        order by run_at
        limit ${input.limit}
        for update skip locked
      )
      returning ${COLUMNS}`),
  );
}

/** Running rows whose lease expired on their last attempt become `dead`, with the reason. */
export async function buryAbandonedJobs(db: Db): Promise<ClaimedJob[]> {
  return rowsOf(
    await db.execute(sql`
      update outbox set status = 'dead', locked_until = null, owner = null, done_at = now(),
        last_error = ${abandonedReason(sql`attempts`, sql`max_attempts`)}
      where id in (
        select id from outbox
        where status = 'running' and locked_until < now() and attempts >= max_attempts
        for update skip locked
      )
      returning ${COLUMNS}`),
  );
}

/**
 * At start: rows still `running` under an earlier process of this instance lost their worker, so
 * they are released now instead of when their lease ends. `ownerPattern` (SQL LIKE) names them.
 * The attempt they were on counts; one that was the last goes to `dead`. Returns the dead rows.
 */
export async function releaseLeasesOf(input: { ownerPattern: string; except: string }, db: Db): Promise<{ released: number; dead: ClaimedJob[] }> {
  const rows = rowsOf(
    await db.execute(sql`
      update outbox set status = case when attempts >= max_attempts then 'dead' else 'pending' end,
        run_at = now(), locked_until = null, owner = null,
        done_at = case when attempts >= max_attempts then now() else null end,
        last_error = ${sql`'worker stopped during attempt ' || attempts || ' of ' || max_attempts || ' (instance restarted)'`}
      where status = 'running' and (owner is null or (owner like ${input.ownerPattern} and owner <> ${input.except}))
      returning ${COLUMNS}`),
  );
  return { released: rows.length, dead: rows.filter((r) => r.status === "dead") };
}

function abandonedReason(attempts: SQL, maxAttempts: SQL): SQL {
  return sql`'worker stopped during attempt ' || ${attempts} || ' of ' || ${maxAttempts} || ' (lease expired)'`;
}

function rowsOf(result: unknown): ClaimedJob[] {
  return executedRows<Record<string, unknown>>(result).map((r) => ({
    id: Number(r.id),
    organizationId: (r.organization_id as string | null) ?? null,
    kind: r.kind as string,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    status: r.status as ClaimedJob["status"],
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    runAt: new Date(r.run_at as string),
    lockedUntil: r.locked_until ? new Date(r.locked_until as string) : null,
    owner: (r.owner as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: new Date(r.created_at as string),
    doneAt: r.done_at ? new Date(r.done_at as string) : null,
  }));
}
