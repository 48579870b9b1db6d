import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { processDocuments, processes, processSigners } from "./processes";
import { organizations } from "./organizations";

/**
 * Evidence of display: the first time each page of each document was drawn in the signer's
 * viewport (reported by the reading step, timed by the server), with the device that reported it.
 * Signing is refused until every page of the current revisions has a row.
 */
export const signerPageViews = pgTable(
  "signer_page_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => processSigners.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => processDocuments.id, { onDelete: "cascade" }),
    processId: text("process_id")
      .notNull()
      .references(() => processes.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** 0-based page of the revision that was shown. */
    pageIndex: integer("page_index").notNull(),
    /** SHA-256 of the revision the page belonged to when it was first shown. */
    documentSha256: text("document_sha256").notNull(),
    address: text("address").notNull(),
    userAgent: text("user_agent").notNull(),
    shownAt: timestamp("shown_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("signer_page_views_signer_page_key").on(t.signerId, t.documentId, t.pageIndex),
    // a process's reading record, for its evidence export
    index("signer_page_views_process_idx").on(t.processId),
  ],
);
