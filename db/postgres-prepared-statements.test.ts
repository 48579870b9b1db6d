import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from "@/e2e/fixtures/postgres";
import { organizations } from "@/db/schema";
import { prepareEveryStatement } from "./postgres-prepared-statements";

// drizzle sends its statements unprepared (two round trips and a parse and plan each); the client
// wrapper prepares them, as postgres.js does its own. Checked on the server: pg_prepared_statements
// lists what the session prepared.
let cluster: PostgresCluster;
beforeAll(async () => {
  if (!findPostgresBin("initdb")) return;
  cluster = await startPostgresCluster();
  const admin = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe("create table organizations_probe (id int primary key, name text)");
  await admin.unsafe("insert into organizations_probe values (1, 'uno'), (2, 'dos')");
  await admin.end();
}, 60_000);
afterAll(() => cluster?.stop());

/** One connection, so the session pg_prepared_statements describes is the one that ran the statements. */
async function withClient<T>(url: string, wrap: boolean, work: (db: ReturnType<typeof drizzle>) => Promise<T>): Promise<T> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const db = drizzle(wrap ? prepareEveryStatement(client) : client);
  try {
    return await work(db);
  } finally {
    await client.end();
  }
}

const probe = sql`organizations_probe`;
const nameOf = (db: Pick<ReturnType<typeof drizzle>, "execute">, id: number) => db.execute<{ name: string }>(sql`select name from ${probe} where id = ${id}`);
const preparedProbes = async (db: Pick<ReturnType<typeof drizzle>, "execute">) =>
  Number((await db.execute<{ n: string }>(sql`select count(*) as n from pg_prepared_statements where statement like '%from organizations_probe where id = $1%'`))[0].n);

describe.skipIf(!findPostgresBin("initdb"))("every statement drizzle sends to PostgreSQL is prepared", () => {
  it("outside a transaction, in a transaction and in a savepoint, with the right rows", async () => {
    await withClient(cluster.adminUrl, true, async (db) => {
      expect((await nameOf(db, 1))[0].name).toBe("uno");
      expect((await nameOf(db, 2))[0].name).toBe("dos");
      expect(await preparedProbes(db)).toBe(1);
      await db.transaction(async (tx) => {
        expect((await nameOf(tx, 2))[0].name).toBe("dos");
        await tx.transaction(async (savepoint) => {
          expect((await nameOf(savepoint, 1))[0].name).toBe("uno");
          // the same text, on the same session: still the one statement
          expect(await preparedProbes(savepoint)).toBe(1);
        });
      });
    });
  });

  it("a transaction's statements are prepared on the transaction's own client", async () => {
    await withClient(cluster.adminUrl, true, async (db) => {
      await db.transaction(async (tx) => {
        expect((await nameOf(tx, 1))[0].name).toBe("uno");
        expect(await preparedProbes(tx)).toBe(1);
      });
    });
  });

  it("drizzle's own setting prepares nothing (the counter-check: what the wrapper changes)", async () => {
    await withClient(cluster.adminUrl, false, async (db) => {
      expect((await nameOf(db, 1))[0].name).toBe("uno");
      await db.transaction(async (tx) => void (await nameOf(tx, 2)));
      expect(await preparedProbes(db)).toBe(0);
    });
  });

  it("?prepare=false in the URL turns it off (a pooler without prepared statements)", async () => {
    await withClient(`${cluster.adminUrl}?prepare=false`, true, async (db) => {
      expect((await nameOf(db, 1))[0].name).toBe("uno");
      expect(await preparedProbes(db)).toBe(0);
    });
  });

  it("text without parameters still runs by the simple protocol: several statements in one", async () => {
    await withClient(cluster.adminUrl, true, async (db) => {
      await db.execute(sql.raw("create table several_probe (id int); insert into several_probe values (7)"));
      expect((await db.execute<{ id: number }>(sql.raw("select id from several_probe")))[0].id).toBe(7);
    });
  });

  it("a statement the server refuses to prepare rejects its caller (it does not hang)", async () => {
    await withClient(cluster.adminUrl, true, async (db) => {
      // the app's tables are not migrated here: the server refuses the query builder's select with a bound value
      await expect(db.select().from(organizations).where(eq(organizations.domain, "x"))).rejects.toThrow(/organizations/);
    });
  });
});
