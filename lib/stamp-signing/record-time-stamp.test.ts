import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { stampTransactions, users } from "@/db/schema";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { createClusterDatabase, findPostgresBin, startPostgresCluster } from "@/e2e/fixtures/postgres";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { generateTxToken } from "./generate-tx-token";
import { recordTimeStamp } from "./record-time-stamp";

type Opened = { db: Db; close: () => Promise<void> };

/** The same checks on each database kind: `open(name)` gives a new, empty database. */
function recordChecks(kind: string, open: (name: string) => Promise<Opened>, setup?: { start: () => Promise<void>; stop: () => Promise<void> }) {
  describe(`recordTimeStamp (group commit on ${kind})`, () => {
    let main: Opened;
    let caller: { organizationId: string; userId: string };
    const ownerOf = async (db: Db, domain: string) => {
      await bootstrapPlatform({ domain, adminEmail: `a@${domain}`, adminPassword: "Records-Admin-Pass-1" }, db);
      const [owner] = await db.select().from(users).limit(1);
      return { organizationId: owner.organizationId, userId: owner.id };
    };
    beforeAll(async () => {
      await setup?.start();
      main = await open("main");
      caller = await ownerOf(main.db, "records.test");
    }, 120_000);
    afterAll(async () => {
      await main?.close();
      await setup?.stop();
    });
    const findRow = (txToken: string) =>
      main.db.select({ id: stampTransactions.id }).from(stampTransactions).where(and(eq(stampTransactions.organizationId, caller.organizationId), eq(stampTransactions.txToken, txToken)));

    it("concurrent time-stamps are each committed before their call returns, one row per tx_token", async () => {
      const tokens = Array.from({ length: 40 }, generateTxToken);
      const seenAtReturn = await Promise.all(
        tokens.map(async (txToken) => {
          await recordTimeStamp({ ...caller, txToken }, main.db);
          return (await findRow(txToken)).length;
        }),
      );
      expect(seenAtReturn).toEqual(tokens.map(() => 1));
      const rows = await main.db.select().from(stampTransactions).where(eq(stampTransactions.operation, "signTimeStamp"));
      for (const txToken of tokens) expect(rows.filter((row) => row.txToken === txToken)).toHaveLength(1);
      expect(rows.every((row) => row.status === "done" && row.completedAt !== null && row.userId === caller.userId)).toBe(true);
    });

    it("a reused tx_token in a batch fails that call alone with the unique violation; the others are recorded", async () => {
      const reused = generateTxToken();
      await recordTimeStamp({ ...caller, txToken: reused }, main.db);
      const tokens = Array.from({ length: 12 }, (_, i) => (i === 6 ? reused : generateTxToken()));
      const results = await Promise.allSettled(tokens.map((txToken) => recordTimeStamp({ ...caller, txToken }, main.db)));
      expect(results.map((r) => r.status)).toEqual(tokens.map((_, i) => (i === 6 ? "rejected" : "fulfilled")));
      expect(isUniqueViolation((results[6] as PromiseRejectedResult).reason, "stamp_transactions_org_tx_token_key")).toBe(true);
      for (const txToken of tokens) expect(await findRow(txToken)).toHaveLength(1);
    });

    it("a closed database fails every call of the batch; none resolves as if recorded", async () => {
      const other = await open("closed");
      const owner = await ownerOf(other.db, "closed.test");
      await recordTimeStamp({ ...owner, txToken: generateTxToken() }, other.db);
      await other.close();
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => recordTimeStamp({ ...owner, txToken: generateTxToken() }, other.db)));
      expect(results.map((r) => r.status)).toEqual(Array(6).fill("rejected"));
    });
  });
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fv-tsa-records-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

recordChecks("PGlite", async (name) => {
  const dataDir = path.join(scratch, `pglite-${name}`);
  fs.mkdirSync(dataDir);
  return openDatabase({ dataDir });
});

let cluster: Awaited<ReturnType<typeof startPostgresCluster>> | undefined;
if (findPostgresBin("initdb")) {
  recordChecks(
    "PostgreSQL",
    async (name) => {
      // each name its own database in the one throwaway cluster
      return openDatabase({ databaseUrl: await createClusterDatabase(cluster!.adminUrl, `records_${name}`), dataDir: scratch });
    },
    {
      start: async () => {
        cluster = await startPostgresCluster();
      },
      stop: async () => cluster?.stop(),
    },
  );
}
