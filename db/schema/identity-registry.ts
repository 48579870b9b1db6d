import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * The default identity registry (lib/identity-registry): names an organization imported for a
 * person (nat + doc_id), proposed to the signer on the identification step. Importing again
 * replaces the names.
 */
export const identityRegistryEntries = pgTable(
  "identity_registry_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    nat: text("nat").notNull(),
    docId: text("doc_id").notNull(),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("identity_registry_org_nat_doc_key").on(t.organizationId, t.nat, t.docId),
    index("identity_registry_organization_idx").on(t.organizationId),
  ],
);
