import type { Sql, TransactionSql } from "postgres";

type Unsafe = Sql["unsafe"];
type Callback = (sql: TransactionSql) => unknown;

/**
 * drizzle runs every statement it builds with `prepare: false` unless the query was given a name
 * (drizzle-orm/postgres-js/session.js). postgres.js then sends it unnamed and, since it has
 * parameters, asks PostgreSQL to describe them first: two round trips, and a parse and plan on the
 * server, for every statement. Measured on a 3-table join by key (bench/results/2026-12-02-postgres-prepared-statements.txt):
 * 1.5-1.9 ms a statement unprepared, 0.4-0.6 ms prepared.
 *
 * Here every statement drizzle sends is prepared, as postgres.js does with its own queries (its
 * default `prepare: true`): parsed once per connection, then one round trip (bind, execute). A
 * statement without parameters still goes by the simple protocol (postgres.js's rule), so
 * migrations and other multi-statement text are unchanged. The connection's own setting wins:
 * `?prepare=false` in DATABASE_URL (or PGPREPARE=false) turns it off for a pooler that cannot keep
 * prepared statements (PgBouncer in transaction mode before 1.21). A cached plan is made again when
 * autovacuum's ANALYZE changes the table's statistics, as for any postgres.js query.
 *
 * A connection keeps one statement per distinct text it ran. Texts come from the code, not from
 * input: only a list's length changes one (`in ($1, …, $n)`, multi-row inserts), and every list
 * the requests give is bounded by its schema; postgres.js also replaces each connection after 30–60
 * minutes (`max_lifetime`), statements and all.
 */
export function prepareEveryStatement<T extends Sql | TransactionSql>(sql: T): T {
  const unsafe: Unsafe = sql.unsafe.bind(sql);
  const preparing = ((query: string, parameters?: unknown, options?: object) =>
    // postgres.js reads a second argument that is not an array as the options
    Array.isArray(parameters) ? unsafe(query, parameters as never[], { ...options, prepare: true }) : unsafe(query, [], { ...(parameters as object), prepare: true })) as Unsafe;
  Object.assign(sql, { unsafe: preparing });
  // a transaction's (and a savepoint's) statements run on a client of their own, which postgres.js makes per transaction
  if ("begin" in sql) wrapCallback(sql, "begin");
  if ("savepoint" in sql) wrapCallback(sql, "savepoint");
  return sql;
}

/** Replaces `target[method]` (whose last argument is the callback given the transaction's client) with one that prepares that client's statements. */
function wrapCallback(target: object, method: "begin" | "savepoint"): void {
  const original = (target as Record<string, (...args: unknown[]) => unknown>)[method].bind(target);
  Object.assign(target, {
    [method]: (...args: unknown[]) => {
      const last = args.length - 1;
      if (typeof args[last] === "function") {
        const callback = args[last] as Callback;
        args[last] = (transaction: TransactionSql) => callback(prepareEveryStatement(transaction));
      }
      return original(...args);
    },
  });
}
