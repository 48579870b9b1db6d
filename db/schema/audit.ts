import { bigserial, index, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * Append-only, hash-chained record of security-relevant actions. Each organization has its own
 * chain (platform events have no organization): hash = sha256(prev_hash || canonical entry).
 * No foreign key on the organization: the log must outlive what it describes.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id"),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull().default(""),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("audit_log_hash_key").on(t.hash),
    index("audit_log_organization_idx").on(t.organizationId, t.id),
    // a process's entries, for its evidence export
    index("audit_log_organization_target_idx").on(t.organizationId, t.target),
    // one successor per entry: concurrent appends cannot fork a chain (platform events: null organization)
    unique("audit_log_chain_key").on(t.organizationId, t.prevHash).nullsNotDistinct(),
  ],
);
export type AuditLogEntry = typeof auditLog.$inferSelect;
