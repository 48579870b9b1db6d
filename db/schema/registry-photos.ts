import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { ReferenceSupplier } from "@/lib/identity-assurance/identity-level";
import { organizations } from "./organizations";

/**
 * An organization's reference portrait for one person (nat + doc_id), compared with the signer's
 * selfie in the facial check (`match:db:selfie`). The photo itself lives in the blob store,
 * encrypted (lib/crypto/encrypt-biometric.ts); uploading again replaces it.
 */
export const registryPhotos = pgTable(
  "registry_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    nat: text("nat").notNull(),
    docId: text("doc_id").notNull(),
    blobKey: text("blob_key").notNull(),
    /** Who uploaded this portrait (staff user or process-API credential); null for rows stored before issue 36. */
    suppliedBy: jsonb("supplied_by").$type<ReferenceSupplier | null>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("registry_photos_org_nat_doc_key").on(t.organizationId, t.nat, t.docId),
    index("registry_photos_organization_idx").on(t.organizationId),
  ],
);
