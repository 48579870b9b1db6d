import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { bytea } from "./bytea";

/** Blob bodies when the service runs on PostgreSQL, so several instances share every file. */
export const blobs = pgTable("blobs", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  body: bytea("body").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
