import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/** The service is healthy when the database answers a query. */
export async function checkHealth(db: Db): Promise<{ status: "ok"; database: "ok" }> {
  await db.execute(sql`select 1`);
  return { status: "ok", database: "ok" };
}
