import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";

export type AuditChainReport =
  | { intact: true; entries: number }
  | {
      intact: false;
      entries: number;
      /** The first entry whose stored hash or link does not match the recomputation. */
      brokenAt: { id: number; reason: "hash_mismatch" | "prev_hash_mismatch" };
    };

const BATCH = 500;

/**
 * Recomputes an organization's chain (null: the platform chain) from the first entry. An edited
 * entry fails its own hash; a deleted or inserted one breaks the link of the entry after it.
 */
export async function verifyAuditChain(input: { organizationId: string | null }, db: Db): Promise<AuditChainReport> {
  const scope = input.organizationId === null ? isNull(auditLog.organizationId) : eq(auditLog.organizationId, input.organizationId);
  let expectedPrev = GENESIS_HASH;
  let afterId = 0;
  let entries = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(and(scope, gt(auditLog.id, afterId))).orderBy(asc(auditLog.id)).limit(BATCH);
    for (const row of rows) {
      entries++;
      if (row.prevHash !== expectedPrev) return { intact: false, entries, brokenAt: { id: row.id, reason: "prev_hash_mismatch" } };
      const recomputed = hashAuditEntry(row.prevHash, {
        organizationId: row.organizationId,
        occurredAt: row.occurredAt,
        actor: row.actor,
        action: row.action,
        target: row.target,
        detail: row.detail,
      });
      if (recomputed !== row.hash) return { intact: false, entries, brokenAt: { id: row.id, reason: "hash_mismatch" } };
      expectedPrev = row.hash;
    }
    if (rows.length < BATCH) return { intact: true, entries };
    afterId = rows[rows.length - 1].id;
  }
}
