import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * Durable work: async signing jobs, callbacks, e-mails, WhatsApp messages. Rows are written in the
 * same transaction as the data they describe and claimed by the in-process dispatcher with
 * `FOR UPDATE SKIP LOCKED` and a lease, so several instances can share one database.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "running", "done", "dead"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(10),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    // `<instance>#<pid>` of the worker holding the lease; a restarted instance releases its old pid's rows at once
    owner: text("owner"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    index("outbox_due_idx").on(t.status, t.runAt),
    // the staff home's dead callbacks, and a process's callback jobs (delivery log, "redelivered since")
    index("outbox_org_dead_idx").on(t.organizationId, t.kind).where(sql`${t.status} = 'dead'`),
    index("outbox_callback_process_idx").on(sql`(${t.payload}->>'processId')`, t.id).where(sql`${t.kind} = 'callback.deliver'`),
  ],
);

/** Every delivery attempt of an outbox row (callbacks, messages), for the dashboard's delivery log. */
export const outboxAttempts = pgTable(
  "outbox_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboxId: integer("outbox_id").notNull(),
    attempt: integer("attempt").notNull(),
    outcome: text("outcome", { enum: ["delivered", "failed"] }).notNull(),
    detail: text("detail"),
    durationMs: integer("duration_ms"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_attempts_outbox_idx").on(t.outboxId)],
);
