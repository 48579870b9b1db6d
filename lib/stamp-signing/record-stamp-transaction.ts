import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stampTransactions } from "@/db/schema";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { AppError } from "@/lib/errors";
import { AUDIT_CHAIN_KEY, appendAuditEntry, type AuditEvent } from "@/lib/audit/record-audit-event";

export type NewStampTransaction = typeof stampTransactions.$inferInsert;

const MAX_ATTEMPTS = 100;

/**
 * Writes a signPDF transaction that claimed nothing before (done or failed) and its audit entry in
 * one statement, atomic without a transaction around it. The tx_token's unique key refuses a
 * replay (TX_TOKEN_REUSED), also between parallel requests; an audit entry that lost its place in
 * the chain to another writer undoes the statement, which is written again after that writer.
 */
export async function recordStampTransaction(input: { row: NewStampTransaction; audit: AuditEvent }, db: Db): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const insert = db.insert(stampTransactions).values(input.row).getSQL();
    try {
      await db.execute(sql`with recorded as (${insert}) ${appendAuditEntry(input.audit, "fail")}`);
      return;
    } catch (error) {
      if (isUniqueViolation(error, "stamp_transactions_org_tx_token_key")) throw new AppError("TX_TOKEN_REUSED", undefined, "tx_token");
      if (!isUniqueViolation(error, AUDIT_CHAIN_KEY)) throw error;
    }
  }
  throw new Error(`audit chain of ${input.audit.organizationId}: no append in ${MAX_ATTEMPTS} attempts`);
}
