import { PGlite, parse, protocol, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteByteaCodec } from "./pglite-bytea";
import { prepareStatementsOnce, type PreparedStatementCache } from "./pglite-prepared-statements";

// the reference: PGlite's own query(), on a second database with the same rows
let ours: PGlite;
let stock: PGlite;
let cache: PreparedStatementCache;
const CAPACITY = 4;
const MAX_AGE_MS = 60_000;
let clock = 0;

beforeAll(async () => {
  [ours, stock] = [new PGlite(pgliteByteaCodec), new PGlite(pgliteByteaCodec)];
  cache = prepareStatementsOnce(ours, { parse, protocol }, { capacity: CAPACITY, maxAgeMs: MAX_AGE_MS, now: () => clock });
  for (const db of [ours, stock]) {
    await db.exec("create table t (id int primary key, name text, at timestamptz, data bytea, doc jsonb)");
    await db.query("insert into t values ($1, $2, $3, $4, $5), ($6, $7, $8, $9, $10)", [1, "uno", new Date("2026-01-02T03:04:05Z"), new Uint8Array([0, 1, 255]), { a: [1, "x"] }, 2, null, null, null, null]);
  }
});
afterAll(async () => {
  await Promise.all([ours?.close(), stock?.close()]);
});

async function both(sql: string, params: unknown[] = [], options?: Parameters<PGlite["query"]>[2]) {
  return Promise.all([ours.query(sql, params, options), stock.query(sql, params, options)]);
}

describe("PGlite statements prepared once", () => {
  it("answer as PGlite's own query() does: rows, fields, counts, nulls, bytea, json, timestamps and drizzle's parsers", async () => {
    const drizzleLike = { rowMode: "array" as const, parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
    for (const [sql, params, options] of [
      ["select * from t order by id", [], undefined],
      ["select * from t where id = $1", [1], drizzleLike],
      ["select name, data from t where data = $1", [new Uint8Array([0, 1, 255])], undefined],
      ["select count(*)::int as n from t where name is null", [], undefined],
      ["update t set name = $1 where id = $2 and name is null", ["dos", 3], undefined],
      ["with changed as (update t set doc = $1 where id = $2 returning id) select id from changed", [{ b: true }, 2], undefined],
      // a call's own parser wins over PGlite's for its type; PGlite's still parse the others (bytea, json)
      ["select * from t order by id", [], { parsers: { [types.INT4]: (value: string) => `int ${value}` } }],
      ["select * from t order by id", [], { rowMode: "array" as const, parsers: { [types.INT4]: (value: string) => `int ${value}`, [types.TIMESTAMPTZ]: (value: string) => value } }],
    ] as const) {
      const [mine, theirs] = await both(sql, [...params], options);
      expect(mine, sql).toEqual(theirs);
    }
  });

  it("prepares a statement once and runs it again without parsing; a plan the backend caches turns generic as on PostgreSQL", async () => {
    const before = cache.prepared();
    for (let i = 0; i < 8; i++) expect((await ours.query<{ id: number }>("select id from t where id = $1", [1])).rows).toEqual([{ id: 1 }]);
    expect(cache.prepared() - before).toBe(1);
    const stats = await ours.query<{ generic_plans: number }>("select generic_plans::int from pg_prepared_statements where statement = 'select id from t where id = $1'");
    expect(stats.rows[0].generic_plans).toBeGreaterThan(0);
  });

  it("keeps at most its capacity, and closes on the backend the statements it let go", async () => {
    for (let i = 0; i < CAPACITY * 3; i++) await ours.query(`select id + ${i} as n from t where id = $1`, [1]);
    expect(cache.size()).toBe(CAPACITY);
    await ours.query("select 'one more' as s where $1::int = 1", [1]);
    const named = await ours.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where name like 'fv\\_%'");
    // the closes ride with the next statement prepared: at most the capacity plus this one
    expect(named.rows[0].n).toBeLessThanOrEqual(CAPACITY + 1);
  });

  it("reports a constraint violation as PGlite does, and the statement and the transaction rules still hold after it", async () => {
    const failure = await ours.query("insert into t (id, name) values ($1, $2)", [1, "again"]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "23505", constraint: "t_pkey" });
    expect((await ours.query("insert into t (id, name) values ($1, $2)", [3, "tres"])).affectedRows).toBe(1);
    // inside a transaction: the failed statement aborts it, and nothing of it stays
    const inTransaction = await ours
      .transaction(async (tx) => {
        await tx.query("insert into t (id, name) values ($1, $2)", [4, "cuatro"]);
        await tx.query("insert into t (id, name) values ($1, $2)", [1, "again"]);
      })
      .catch((error: unknown) => error);
    expect(inTransaction).toMatchObject({ code: "23505" });
    expect((await ours.query("select id from t where id = $1", [4])).rows).toEqual([]);
  });

  it("runs a statement from outside a transaction after it ends, never inside it", async () => {
    let outside: Promise<{ rows: { n: number }[] }> | undefined;
    await ours.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values ($1, $2)", [5, "cinco"]);
      // issued while the transaction is open: it must wait for it, not join it
      outside = ours.query<{ n: number }>("select count(*)::int as n from t where id = $1", [5]);
      await tx.rollback();
    });
    expect((await outside!).rows).toEqual([{ n: 0 }]);
  });

  it("prepares again a statement a schema change made stale, outside a transaction", async () => {
    await ours.query("select * from t where id = $1", [1]);
    await ours.exec("alter table t add column extra int default 7");
    const after = await ours.query<{ extra: number }>("select * from t where id = $1", [1]);
    expect(after.rows[0].extra).toBe(7);
  });

  it("prepares a statement again once it is a minute old, so its next plans are made for the tables as they are then", async () => {
    const text = "select name from t where id = $1 and $2::int = 2";
    const lookup = () => ours.query(text, [1, 2]);
    const before = cache.prepared();
    for (let i = 0; i < 8; i++) await lookup();
    clock += MAX_AGE_MS;
    await lookup();
    expect(cache.prepared() - before).toBe(1);
    clock += 1;
    await lookup();
    expect(cache.prepared() - before).toBe(2);
    // the old one is closed with the next statement prepared: one left, making its custom plans again
    await ours.query("select 'next' as s where $1::int = 1", [1]);
    const left = await ours.query<{ custom_plans: number }>("select custom_plans::int from pg_prepared_statements where statement = $1", [text]);
    expect(left.rows).toEqual([{ custom_plans: 1 }]);
  });

  it("never hands PGlite's parseResults a call's own parsers, which it would copy with its 300-odd own for every statement", async () => {
    const seen: unknown[] = [];
    const watched = new PGlite(pgliteByteaCodec);
    try {
      await watched.waitReady;
      const watching = { ...parse, parseResults: (...args: Parameters<typeof parse.parseResults>) => (seen.push(args[2]?.parsers), parse.parseResults(...args)) };
      prepareStatementsOnce(watched, { parse: watching, protocol });
      const { rows } = await watched.query<{ n: string }>("select 41 + $1::int as n", [1], { parsers: { [types.INT4]: (value: string) => `int ${value}` } });
      expect(rows).toEqual([{ n: "int 42" }]);
      expect(seen).toEqual([undefined]);
    } finally {
      await watched.close();
    }
  });

  it("leaves other statements and options to PGlite's own query()", async () => {
    const before = cache.prepared();
    await ours.query("set application_name = 'x'");
    await ours.query("show application_name");
    expect(cache.prepared()).toBe(before);
  });
});
