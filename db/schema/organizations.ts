import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, index } from "drizzle-orm/pg-core";

export const organizations = pgTable(
  "organizations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    domain: text("domain").notNull(),
    displayName: text("display_name").notNull(),
    status: text("status", { enum: ["active", "suspended"] }).notNull().default("active"),
    linkMode: text("link_mode", { enum: ["shared", "per-signer"] }).notNull().default("shared"),
    requireApproval: boolean("require_approval").notNull().default(false),
    enabledNationalities: jsonb("enabled_nationalities").$type<string[]>().notNull().default(sql`'["PER"]'::jsonb`),
    allowPrivateCallbacks: boolean("allow_private_callbacks").notNull().default(false),
    /** A face match against the signer's own ID photo signs only after staff review (issue 25); off makes the level `document`. */
    identityReviewRequired: boolean("identity_review_required").notNull().default(true),
    /** IANA zone in which the dashboard shows dates and reads date filters. */
    timeZone: text("time_zone").notNull().default("America/Lima"),
    /** The callback HMAC secret is derived from SECRET_KEY, the organization id and this version; bump it to rotate. */
    callbackSecretVersion: integer("callback_secret_version").notNull().default(1),
    /**
     * Until when callbacks are also signed with the previous version's secret (version - 1): set when a
     * departure rotates it, so receivers have 24 h to take the new one; null after a manual rotation.
     */
    callbackSecretPreviousUntil: timestamp("callback_secret_previous_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("organizations_domain_key").on(t.domain)],
);

export const staffRoles = ["owner", "admin", "operator", "viewer"] as const;
export type StaffRole = (typeof staffRoles)[number];

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: staffRoles }).notNull(),
    isPlatformAdmin: boolean("is_platform_admin").notNull().default(false),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), index("users_organization_idx").on(t.organizationId)],
);

export const credentialRoles = ["admin", "operator", "viewer"] as const;
export type CredentialRole = (typeof credentialRoles)[number];

/** Process-API credentials: `clientname` + secret, owned by one organization. */
export const apiCredentials = pgTable(
  "api_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    clientname: text("clientname").notNull(),
    secretHash: text("secret_hash").notNull(),
    role: text("role", { enum: credentialRoles }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The staff member whose password may be this credential's secret (the first start's admin
     * credential before each got its own): revoked with that person's other credentials.
     */
    passwordOfUserId: uuid("password_of_user_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * Permissions granted to this credential beyond its role (lib/auth/roles.ts `grantablePermissions`),
     * each by a staff member who holds it: an operator credential that may supply registry portraits.
     */
    grants: jsonb("grants").$type<string[]>().notNull().default([]),
    /** The staff member who created it and saw its secret: their removal revokes it unless an owner re-assigns it. */
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Bumped when the secret is replaced; process tokens carry it, so tokens of the old secret end at once. */
    secretGeneration: integer("secret_generation").notNull().default(1),
  },
  (t) => [uniqueIndex("api_credentials_org_clientname_key").on(t.organizationId, t.clientname)],
);
