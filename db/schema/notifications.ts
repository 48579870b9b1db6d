import { bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/** Messages kept instead of sent when SMTP_URL / WHATSAPP_* are unset (dashboard dev mailbox). */
export const devMailbox = pgTable(
  "dev_mailbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["email", "whatsapp"] }).notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull().default(""),
    body: text("body").notNull(),
    processId: text("process_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("dev_mailbox_org_created_idx").on(t.organizationId, t.createdAt)],
);
