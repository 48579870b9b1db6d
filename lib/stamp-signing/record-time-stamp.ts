import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { stampTransactions } from "@/db/schema";
import { groupCommit, type GroupCommit } from "@/db/group-commit";
import { processSingleton } from "@/lib/process-wide/singleton";
import { timed, untimed } from "@/lib/runtime/request-timing";

export type TimeStampRecord = { organizationId: string; userId: string; txToken: string };

/** Rows per INSERT: past ~32 a row costs no less on PGlite (bench/time-stamp-profile.ts). */
export const TIME_STAMP_ROWS_PER_STATEMENT = 64;

/**
 * Records a signTimeStamp's transaction (the row behind its tx_token) and resolves once it is
 * committed. Concurrent time-stamps share one multi-row INSERT (db/group-commit.ts): on PGlite
 * one statement of eight rows costs about a third of eight statements of one.
 */
export function recordTimeStamp(record: TimeStampRecord, db: Db): Promise<void> {
  const completedAt = new Date();
  const row = { ...record, docId: crypto.randomUUID(), operation: "signTimeStamp" as const, status: "done" as const, completedAt };
  // each caller's wait is its "database" time; the shared statement itself is charged to no one
  return timed("database", () => writerFor(db).add(row));
}

type Row = typeof stampTransactions.$inferInsert;

// one writer per database in the process (v2 and v3 routes are bundled apart)
const writers = () => processSingleton("firmaviva.time-stamp-records", () => new WeakMap<Db, GroupCommit<Row>>());

function writerFor(db: Db): GroupCommit<Row> {
  let writer = writers().get(db);
  if (!writer) {
    writer = groupCommit<Row>({ maxRows: TIME_STAMP_ROWS_PER_STATEMENT, write: (rows) => untimed(() => db.insert(stampTransactions).values(rows)) });
    writers().set(db, writer);
  }
  return writer;
}
