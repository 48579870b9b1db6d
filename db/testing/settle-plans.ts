import type { Db } from "@/db/client";

/** More runs than PostgreSQL's five custom plans of a prepared statement, after which it may keep the generic one. */
const RUNS_PAST_CUSTOM_PLANS = 6;

class RolledBack extends Error {}

/**
 * Runs `work` as many times as it takes a prepared statement's plan to settle (in a transaction
 * that is rolled back, so nothing it writes stays): a lookup measured afterwards is measured with
 * the plan later requests get, which may be the generic one, not the first five custom ones.
 * Both databases prepare statements (postgres.js by default, PGlite through
 * db/pglite-prepared-statements.ts) and cache plans per connection; the prepared statements and
 * their plans outlive the rollback.
 */
export async function settlePlans(db: Db, work: (tx: Db) => Promise<unknown>): Promise<void> {
  await db
    .transaction(async (tx) => {
      for (let run = 0; run < RUNS_PAST_CUSTOM_PLANS; run++) await work(tx as unknown as Db);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
}
