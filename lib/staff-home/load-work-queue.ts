import { and, asc, count, desc, eq, gt, isNotNull, lte, min, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews, outbox, processes, processSigners, type StaffRole } from "@/db/schema";
import { can } from "@/lib/auth/roles";

/** How far ahead "about to expire" looks. */
export const EXPIRING_WITHIN_MS = 48 * 3600 * 1000;
/** Items listed under each count on the home; the count itself is exact. */
export const WORK_ITEMS_SHOWN = 5;

export type ExpiringProcess = { id: string; description: string; expireAt: Date; unsignedSigners: number };
export type LockedSigner = { id: string; processId: string; description: string; nat: string; docId: string; alias: string; lockedAt: Date };
export type DeadCallback = { jobId: number; processId: string; description: string; lastError: string | null; diedAt: Date };
type Listed<T> = { count: number; items: T[] };

/**
 * What waits for this staff member: each part only when their role may act on it or read it
 * (undefined otherwise), so the home never offers work the next page would refuse.
 */
export type WorkQueue = {
  reviews?: { count: number; oldestAt: Date | null };
  approvals?: { count: number };
  expiring?: Listed<ExpiringProcess>;
  lockedSigners?: Listed<LockedSigner>;
  deadCallbacks?: Listed<DeadCallback>;
};

// A dead job stops counting once the process has a newer callback job (a redelivery).
const latestCallbackJob = sql`not exists (select 1 from ${outbox} as newer where newer.kind = 'callback.deliver' and newer.payload->>'processId' = ${outbox.payload}->>'processId' and newer.id > ${outbox.id})`;

/** The counts and first items of the staff home's work queue, every query bounded by an index on the organization. */
export async function loadWorkQueue(input: { organizationId: string; role: StaffRole; now: Date }, deps: { db: Db }): Promise<WorkQueue> {
  const { db } = deps;
  const { organizationId, role, now } = input;
  const queue: WorkQueue = {};
  const work: Promise<unknown>[] = [];

  if (can(role, "identity:review")) {
    work.push(
      db
        .select({ count: count(), oldestAt: min(identityReviews.createdAt) })
        .from(identityReviews)
        .where(and(eq(identityReviews.organizationId, organizationId), eq(identityReviews.status, "pending")))
        .then(([row]) => (queue.reviews = { count: row.count, oldestAt: row.oldestAt ?? null })),
    );
  }
  if (can(role, "processes:approve")) {
    work.push(
      db
        .select({ count: count() })
        .from(processes)
        .where(and(eq(processes.organizationId, organizationId), eq(processes.status, "approval_pending")))
        .then(([row]) => (queue.approvals = { count: row.count })),
    );
  }
  if (can(role, "processes:read")) {
    work.push(expiring(organizationId, now, db).then((part) => (queue.expiring = part)));
    work.push(lockedSigners(organizationId, db).then((part) => (queue.lockedSigners = part)));
    work.push(deadCallbacks(organizationId, db).then((part) => (queue.deadCallbacks = part)));
  }
  await Promise.all(work);
  return queue;
}

async function expiring(organizationId: string, now: Date, db: Db): Promise<Listed<ExpiringProcess>> {
  // spelled out: in a one-table select drizzle drops the table from column names, which would make this subquery ambiguous
  const unsigned = sql<number>`(select count(*)::int from process_signers ps where ps.process_id = processes.id and ps.status = 'pending')`;
  const where = and(
    eq(processes.organizationId, organizationId),
    eq(processes.status, "pending"),
    gt(processes.expireAt, now),
    lte(processes.expireAt, new Date(now.getTime() + EXPIRING_WITHIN_MS)),
    sql`${unsigned} > 0`,
  );
  const [[total], items] = await Promise.all([
    db.select({ count: count() }).from(processes).where(where),
    db
      .select({ id: processes.id, description: processes.description, expireAt: processes.expireAt, unsignedSigners: unsigned })
      .from(processes)
      .where(where)
      .orderBy(asc(processes.expireAt))
      .limit(WORK_ITEMS_SHOWN),
  ]);
  return { count: total.count, items };
}

async function lockedSigners(organizationId: string, db: Db): Promise<Listed<LockedSigner>> {
  // only signers staff can still unlock: pending, in a process that is still open
  const where = and(
    eq(processSigners.organizationId, organizationId),
    isNotNull(processSigners.lockedAt),
    eq(processSigners.status, "pending"),
    eq(processes.status, "pending"),
  );
  const [[total], rows] = await Promise.all([
    db.select({ count: count() }).from(processSigners).innerJoin(processes, eq(processes.id, processSigners.processId)).where(where),
    db
      .select({ signer: processSigners, description: processes.description })
      .from(processSigners)
      .innerJoin(processes, eq(processes.id, processSigners.processId))
      .where(where)
      .orderBy(desc(processSigners.lockedAt))
      .limit(WORK_ITEMS_SHOWN),
  ]);
  const items = rows.map(({ signer, description }) => ({
    id: signer.id,
    processId: signer.processId,
    description,
    nat: signer.nat,
    docId: signer.docId,
    alias: signer.signerAlias,
    lockedAt: signer.lockedAt!,
  }));
  return { count: total.count, items };
}

async function deadCallbacks(organizationId: string, db: Db): Promise<Listed<DeadCallback>> {
  const processId = sql<string>`${outbox.payload}->>'processId'`;
  const where = and(eq(outbox.organizationId, organizationId), eq(outbox.status, "dead"), eq(outbox.kind, "callback.deliver"), latestCallbackJob);
  const [[total], rows] = await Promise.all([
    db.select({ count: count() }).from(outbox).where(where),
    db
      .select({ jobId: outbox.id, processId, description: processes.description, lastError: outbox.lastError, diedAt: outbox.doneAt, createdAt: outbox.createdAt })
      .from(outbox)
      .innerJoin(processes, eq(processes.id, processId))
      .where(where)
      .orderBy(desc(outbox.id))
      .limit(WORK_ITEMS_SHOWN),
  ]);
  const items = rows.map(({ createdAt, diedAt, ...row }) => ({ ...row, diedAt: diedAt ?? createdAt }));
  return { count: total.count, items };
}
