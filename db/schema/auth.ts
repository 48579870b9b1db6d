import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./organizations";

/**
 * The one live stamp-API token per user and API version. Issuing a new token overwrites the row,
 * which is what makes older tokens stop working.
 */
export const stampApiTokens = pgTable(
  "stamp_api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    apiVersion: text("api_version", { enum: ["v2", "v3"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("stamp_api_tokens_user_version_key").on(t.userId, t.apiVersion),
    uniqueIndex("stamp_api_tokens_token_hash_key").on(t.tokenHash),
  ],
);

/**
 * Login attempts per key ("account:<kind>:<name>", the same from one address, or "address:<ip>"),
 * shared by every instance on the database. An attempt is claimed before the password is checked;
 * past the free attempts each one sets an exponentially longer block (lib/auth/throttle-logins.ts).
 */
export const loginThrottles = pgTable("login_throttles", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull().default(0),
  /** Address keys: attempts claimed and still being checked; a failure moves one to `attempts`, a success just ends it. */
  pending: integer("pending").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

/**
 * Dashboard sessions on the server: the session cookie (a next-auth JWT) names one row, checked on
 * every request, so signing out, changing the password or removing the user ends it at once.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("staff_sessions_user_idx").on(t.userId)],
);
