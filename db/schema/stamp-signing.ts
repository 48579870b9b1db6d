import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations, users } from "./organizations";

/**
 * One stamp-API transaction. tx_token uniqueness is the database's job, so racing requests cannot
 * both win; it is unique per organization, so no organization can take, or probe for, another's.
 */
export const stampTransactions = pgTable(
  "stamp_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    txToken: text("tx_token").notNull(),
    docId: text("doc_id").notNull(),
    operation: text("operation", { enum: ["signPDF", "signTimeStamp"] }).notNull(),
    status: text("status", { enum: ["pending", "done", "failed"] }).notNull(),
    failureMessage: text("failure_message"),
    signType: text("sign_type"),
    inputBlobKey: text("input_blob_key"),
    outputBlobKey: text("output_blob_key"),
    outputSha256: text("output_sha256"),
    summary: jsonb("summary").$type<Record<string, unknown>>(),
    /** PAdES level the output reaches in our verifier (B-T when outside revocation data was unavailable). */
    padesLevel: text("pades_level"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("stamp_transactions_org_tx_token_key").on(t.organizationId, t.txToken),
    // the public /verify/<tx_token> page of links printed before tokens were per organization
    index("stamp_transactions_tx_token_idx").on(t.txToken, t.createdAt),
    uniqueIndex("stamp_transactions_doc_id_key").on(t.docId),
    index("stamp_transactions_org_idx").on(t.organizationId, t.createdAt),
    // stamp signatures per day on the staff home
    index("stamp_transactions_org_completed_idx").on(t.organizationId, t.completedAt),
  ],
);
