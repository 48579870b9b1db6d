import { defineConfig } from "drizzle-kit";

// Migrations are generated from the pg-core schema and applied at server start (db/migrate.ts),
// on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
