import type { PGlite, QueryOptions, Transaction, parse as pgliteParse, protocol as pgliteProtocol } from "@electric-sql/pglite";

export type PreparedStatementCache = { size: () => number; prepared: () => number };

type Statement = { name: string; paramTypes: number[]; rowDescription: unknown; preparedAt: number };
type CacheOptions = { capacity?: number; maxAgeMs?: number; now?: () => number };
type QueryArgs = [sql: string, params?: unknown[], options?: QueryOptions];

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
// 26000: the prepared statement does not exist; 0A000: "cached plan must not change result type"
const STALE_STATEMENT = new Set(["26000", "0A000"]);

/** PGlite's own protocol helpers, passed in: this module is loaded without PGlite when PostgreSQL is used. */
type PgliteProtocol = { parse: typeof pgliteParse; protocol: typeof pgliteProtocol };

/**
 * PGlite's `query()` runs every statement as six exchanges with the WASM backend (parse, describe
 * the statement, bind, describe the portal, execute, sync), and parses and plans it anew each
 * time: a 4-table join by key cost 2–3 ms, of which the backend's execution was 0.2 ms. Here each
 * statement drizzle sends is parsed once into a named prepared statement, as postgres.js does on
 * PostgreSQL (its default `prepare: true`), and every later run is one exchange (bind, execute,
 * sync): the same join costs 0.4 ms. The plan cache then behaves as it does on PostgreSQL: five
 * custom plans, then the generic plan when PostgreSQL finds it no dearer.
 *
 * A plan PostgreSQL caches is not made again when a table grows. On PostgreSQL, autovacuum's
 * ANALYZE invalidates it; PGlite runs no autovacuum, so a generic plan would serve a table at any
 * size it grows to. PostgreSQL guards against the worst of it (a table never vacuumed counts as at
 * least 10 pages; tried here, its generic plans of key and range lookups made at 300 rows kept
 * their index at 100,000), but nothing guarantees it. So a statement is prepared again once it is
 * `maxAgeMs` old (a minute, a few hundred statements prepared a minute at most): its next plans
 * are made for the tables as they are then, as unnamed statements were.
 *
 * Only data statements are kept (select, insert, update, delete, with); anything else, and any
 * call with options this path does not handle (blobs, parameter types), goes to PGlite's own
 * `query()`. The cache holds at most `capacity` statements; the least recently used one is
 * closed on the backend with the next statement prepared. A statement the backend no longer
 * knows, or whose cached plan cannot serve its result type after a schema change, is forgotten
 * and, outside a transaction, run once more.
 */
export function prepareStatementsOnce(client: PGlite, { parse, protocol }: PgliteProtocol, { capacity = 256, maxAgeMs = 60_000, now = Date.now }: CacheOptions = {}): PreparedStatementCache {
  const statements = new Map<string, Statement>();
  let closing: string[] = [];
  let counter = 0;
  let preparedCount = 0;

  /**
   * Runs `sql` on the backend through its named statement, preparing it first when new. Holds the query lock.
   * A call's own type parsers (drizzle brings some with every statement) go in front of PGlite's by
   * prototype: given them, PGlite's parseResults copies its 300-odd parsers into a new object, 0.25 ms
   * a statement (four of them per signPDF), for the same lookups.
   */
  const run = (sql: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean) =>
    client._runExclusiveQuery(async () => {
      let statement = statements.get(sql);
      if (statement && now() - statement.preparedAt > maxAgeMs) {
        forget(sql);
        statement = undefined;
      }
      if (statement) {
        // most recently used last: a Map keeps insertion order
        statements.delete(sql);
        statements.set(sql, statement);
      } else {
        statement = await prepare(sql);
      }
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null;
        const type = statement.paramTypes[index];
        const serialize = options?.serializers?.[type] ?? client.serializers[type];
        return serialize ? serialize(value) : String(value);
      });
      let messages;
      try {
        messages = await client.execProtocolStream(Buffer.concat([protocol.serialize.bind({ statement: statement.name, values: values as string[] }), protocol.serialize.execute({}), protocol.serialize.sync()]), { syncToFs: false });
      } catch (error) {
        if (STALE_STATEMENT.has((error as { code?: string }).code ?? "")) forget(sql);
        throw error;
      }
      if (!inTransaction) await client.syncToFs();
      const described = statement.rowDescription ? [statement.rowDescription] : [];
      const [parsers, rest] = options?.parsers ? [Object.assign(Object.create(client.parsers) as PGlite["parsers"], options.parsers), { ...options, parsers: undefined }] : [client.parsers, options];
      return parse.parseResults([...described, ...messages] as Parameters<typeof parse.parseResults>[0], parsers, rest)[0];
    });

  /** Parses `sql` into a new named statement (closing the ones evicted since the last), in one exchange. */
  async function prepare(sql: string): Promise<Statement> {
    while (statements.size >= capacity) forget(statements.keys().next().value!);
    const name = `fv_${++counter}`;
    const toClose = closing;
    closing = [];
    let messages;
    try {
      messages = await client.execProtocolStream(
        Buffer.concat([...toClose.map((old) => protocol.serialize.close({ type: "S", name: old })), protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()]),
        { syncToFs: false },
      );
    } catch (error) {
      // closing a statement that is already closed is no error: these go again with the next one
      closing.push(...toClose);
      throw error;
    }
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages as Parameters<typeof parse.parseDescribeStatementResults>[0]),
      rowDescription: messages.find((message) => message.name === "rowDescription"),
      preparedAt: now(),
    };
    statements.set(sql, statement);
    preparedCount++;
    return statement;
  }

  function forget(sql: string) {
    const statement = statements.get(sql);
    if (!statement) return;
    statements.delete(sql);
    closing.push(statement.name);
  }

  const cacheable = (sql: string, options?: QueryOptions) => DATA_STATEMENT.test(sql) && !options?.blob && !options?.paramTypes;

  const originalQuery = client.query.bind(client);
  const query = async (...[sql, params = [], options]: QueryArgs) => {
    // a closed database answers with PGlite's own error
    if (!cacheable(sql, options) || client.closed) return originalQuery(sql, params, options);
    return client._runExclusiveTransaction(async () => {
      try {
        return await run(sql, params, options, false);
      } catch (error) {
        // a statement made stale by a schema change is prepared again, once, when no transaction depends on it
        if (!STALE_STATEMENT.has((error as { code?: string }).code ?? "")) throw error;
        return run(sql, params, options, false);
      }
    });
  };
  Object.assign(client, { query });

  const originalTransaction = client.transaction.bind(client);
  Object.assign(client, {
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      originalTransaction((tx) => {
        const txQuery = tx.query.bind(tx);
        const cachedQuery = async (...[sql, params = [], options]: QueryArgs) => {
          if (!cacheable(sql, options) || tx.closed) return txQuery(sql, params, options);
          return run(sql, params, options, true);
        };
        return work(Object.assign(tx, { query: cachedQuery }));
      }),
  });

  return { size: () => statements.size, prepared: () => preparedCount };
}
