import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { processSigners } from "./processes";

export const facialTicketOutcomes = ["pending", "retry", "counted"] as const;
export type FacialTicketOutcome = (typeof facialTicketOutcomes)[number];

/**
 * Every facial challenge ticket a signer was given (lib/signers/facial-ticket-ledger.ts). The rows
 * make a ticket single-use (the first frames upload that carries it sets `used_at`) and bound what a
 * signer may ask for: tickets per 10 minutes (issued_at) and uncounted retries per hour (used_at
 * with outcome `retry`, or `pending` while the try is being judged).
 */
export const facialTickets = pgTable(
  "facial_tickets",
  {
    /** The ticket's random nonce (its first part). */
    nonce: text("nonce").primaryKey(),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => processSigners.id, { onDelete: "cascade" }),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    outcome: text("outcome", { enum: facialTicketOutcomes }),
  },
  (t) => [index("facial_tickets_signer_issued_idx").on(t.signerId, t.issuedAt)],
);
