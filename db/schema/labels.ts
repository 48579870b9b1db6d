import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/** Labels that classify processes: case-sensitive names, unique per owner (usr_id = credential clientname). */
export const labels = pgTable(
  "labels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    usrId: text("usr_id").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("labels_org_owner_name_key").on(t.organizationId, t.usrId, t.name),
    // byte order (collate "C"): the list's sort and keyset cursor, identical on every database
    index("labels_org_name_c_idx").on(t.organizationId, sql`${t.name} collate "C" desc`, sql`${t.usrId} collate "C" desc`),
  ],
);
