import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type QueryTimer } from "@/db/client";
import { organizations } from "@/db/schema";
import { findPostgresBin, startPostgresCluster } from "@/e2e/fixtures/postgres";

// Request profiling charges SQL to the "database" stage at the client (docs/architecture.md): every
// statement and transaction drizzle runs must pass through the timer, on both drivers.
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-time-queries-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function countingTimer() {
  const seen = { calls: 0, open: 0, maxOpen: 0 };
  const timer: QueryTimer = async (work) => {
    seen.calls++;
    seen.open++;
    seen.maxOpen = Math.max(seen.maxOpen, seen.open);
    try {
      return await work();
    } finally {
      seen.open--;
    }
  };
  return { seen, timer };
}

async function exercise(open: (timer: QueryTimer) => ReturnType<typeof openDatabase>) {
  const { seen, timer } = countingTimer();
  const database = await open(timer);
  try {
    const before = seen.calls;
    const [row] = await database.db.select({ n: sql<number>`1 + 1` }).from(sql`(select 1) as one`);
    expect(Number(row.n)).toBe(2);
    expect(seen.calls).toBeGreaterThan(before);
    const afterSelect = seen.calls;
    // a transaction is timed as a whole (its statements inside it), and still commits or rolls back
    await database.db.transaction(async (tx) => {
      await tx.select().from(organizations).limit(1);
    });
    expect(seen.calls).toBeGreaterThan(afterSelect);
    await expect(database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      throw new Error("rolled back");
    })).rejects.toThrow("rolled back");
    await expect(database.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    expect(seen.open).toBe(0);
  } finally {
    await database.close();
  }
}

describe("the database client times every statement and transaction", () => {
  it("on PGlite", async () => {
    await exercise((timeQueries) => openDatabase({ dataDir: dir, timeQueries }));
  }, 120_000);

  it.skipIf(!findPostgresBin("initdb"))("on PostgreSQL", async () => {
    const cluster = await startPostgresCluster();
    try {
      await exercise((timeQueries) => openDatabase({ databaseUrl: cluster.adminUrl, dataDir: dir, timeQueries }));
    } finally {
      cluster.stop();
    }
  }, 120_000);
});
