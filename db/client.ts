import { spawn } from "node:child_process";
import path from "node:path";
import fs from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import * as schema from "./schema";
import { lockDataDir } from "./lock-data-dir";
import { prepareStatementsOnce } from "./pglite-prepared-statements";
import { pgliteByteaCodec } from "./pglite-bytea";
import { prepareEveryStatement } from "./postgres-prepared-statements";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseOptions = {
  databaseUrl?: string;
  dataDir: string;
  /**
   * Wraps every statement and every transaction the driver runs (request profiling charges them to
   * the "database" stage here, at the client, so use cases carry no timing of their own).
   */
  timeQueries?: QueryTimer;
};

export type QueryTimer = <T>(work: () => Promise<T>) => Promise<T>;

/** `postgres` is the postgres.js client behind `db`, for what drizzle does not express (COPY). */
type OpenDatabase = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void>; postgres?: Sql };

const migrationsFolder = () => path.join(process.cwd(), "db", "migrations");

const PGLITE_SHARED_BUFFERS = "32MB";

async function openPglite(dataDir: string, timeQueries?: QueryTimer): Promise<OpenDatabase> {
  const release = lockDataDir(dataDir);
  const { PGlite, parse, protocol } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(dataDir, "pglite");
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    // initdb plus every migration costs ~5 s per new directory; the test runner makes one migrated
    // cluster and names it here. Migrations still run below, so an older copy is brought up to date.
    const template = process.env.PGLITE_TEMPLATE_DIR;
    if (template) fs.cpSync(template, dir, { recursive: true });
    else await createPgliteCluster(dir);
  }
  // PostgreSQL's default 128 MB of shared buffers lives in the WASM heap, which never shrinks:
  // 32 MB holds this app's hot rows and indexes and leaves ~90 MB less RSS (bench:startup)
  const client = new PGlite(dir, { ...pgliteByteaCodec, startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`] });
  await client.waitReady;
  prepareStatementsOnce(client, { parse, protocol });
  // drizzle runs a statement through query() and a transaction through transaction(), whose own
  // statements are inside the timed transaction
  if (timeQueries) for (const method of ["query", "exec", "transaction"] as const) timeMethod(client, method, timeQueries);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: migrationsFolder() });
  return {
    db: db as unknown as Db,
    kind: "pglite",
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * Creates a new embedded cluster (initdb) in a short-lived child process. Creating one grows the
 * WASM heap to ~700 MB, which a process never gives back; opening an existing one needs ~220 MB.
 * Done here, the server's own RSS after a cold start is the same as after a restart.
 */
function createPgliteCluster(dir: string): Promise<void> {
  const script = `import("@electric-sql/pglite").then(async ({ PGlite }) => { const c = new PGlite(process.argv[1]); await c.waitReady; await c.close(); })`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, dir], { cwd: process.cwd(), stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`creating the embedded database in ${dir} failed (exit ${code}): ${errors.slice(-2000)}`))));
  });
}

async function openPostgres(databaseUrl: string, timeQueries?: QueryTimer): Promise<OpenDatabase> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = prepareEveryStatement(postgres(databaseUrl, { max: 10, onnotice: () => {} }));
  if (timeQueries) {
    // drizzle runs a statement as client.unsafe(…), a query that starts when awaited (then), and a
    // transaction as client.begin(…), whose own statements are inside the timed transaction
    const unsafe = client.unsafe.bind(client);
    client.unsafe = ((...args: Parameters<typeof unsafe>) => {
      const query = unsafe(...args);
      const then = query.then.bind(query);
      query.then = ((onDone, onFailed) => timeQueries(() => then()).then(onDone, onFailed)) as typeof query.then;
      return query;
    }) as typeof client.unsafe;
    timeMethod(client, "begin", timeQueries);
  }
  const db = drizzle(client, { schema });
  // Several instances may start at once: one migrates, the others wait on the advisory lock.
  const lockConnection = await client.reserve();
  try {
    await lockConnection`select pg_advisory_lock(7250001)`;
    await migrate(db, { migrationsFolder: migrationsFolder() });
  } finally {
    await lockConnection`select pg_advisory_unlock(7250001)`;
    lockConnection.release();
  }
  return { db: db as unknown as Db, kind: "postgres", close: () => client.end({ timeout: 5 }), postgres: client };
}

/** Opens the configured database and applies committed migrations. */
export function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.timeQueries) : openPglite(options.dataDir, options.timeQueries);
}

/** Replaces `target[method]` with the same method run inside `timer`. */
function timeMethod<T extends object>(target: T, method: keyof T & string, timer: QueryTimer): void {
  const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  Object.assign(target, { [method]: (...args: unknown[]) => timer(() => original(...args)) });
}

export { schema };
