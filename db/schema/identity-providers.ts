import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { bytea } from "./bytea";
import { organizations } from "./organizations";
import { processSigners } from "./processes";

/**
 * The one OpenID Connect identity provider an organization may configure for the `eid` sign
 * challenge (issue 25). The client secret is stored encrypted under a key derived from SECRET_KEY
 * (lib/identity-assurance/eid/client-secret-box.ts) and is never shown back.
 */
export const organizationIdentityProviders = pgTable(
  "organization_identity_providers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Shown to the signer: "Identificarme con <displayName>". */
    displayName: text("display_name").notNull(),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    clientSecretEncrypted: bytea("client_secret_encrypted").notNull(),
    /** Space-separated; always contains `openid`. */
    scopes: text("scopes").notNull(),
    documentNumberClaim: text("document_number_claim").notNull(),
    givenNameClaim: text("given_name_claim").notNull(),
    familyNameClaim: text("family_name_claim").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("organization_identity_providers_organization_key").on(t.organizationId)],
);

/**
 * One eID login a signer started: the PKCE verifier, state and nonce the callback must match. A row
 * is consumed by the first callback that names it, whatever the outcome (single use, atomic).
 */
export const signerEidLogins = pgTable(
  "signer_eid_logins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    signerId: uuid("signer_id")
      .notNull()
      .references(() => processSigners.id, { onDelete: "cascade" }),
    linkId: uuid("link_id").notNull(),
    state: text("state").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    /** The signer session (cookie) that started the login: the eid level it yields is valid there only. */
    sessionId: text("session_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [index("signer_eid_logins_signer_idx").on(t.signerId)],
);
