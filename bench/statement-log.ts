// PostgreSQL's own statement log (log_statement = all) of the throwaway cluster bench/on-postgres.ts
// starts: what statements a request ran, read from the server's side. Prints nothing itself.
import fs from "node:fs";
import path from "node:path";

export type StatementLog = {
  /** Where the log ends now: the statements after this mark are the next request's. */
  mark(): number;
  /** The statements logged since `from` (shortened to 140 characters), the outbox dispatcher's own polls apart. */
  since(from: number): { own: string[]; background: number };
};

export async function openStatementLog(adminUrl: string): Promise<StatementLog> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe("alter system set log_statement = 'all'");
  await sql.unsafe("alter system set log_line_prefix = '%p '");
  await sql.unsafe("select pg_reload_conf()");
  const [{ directory }] = await sql.unsafe<{ directory: string }[]>("select current_setting('data_directory') as directory");
  await sql.end();
  // pg_ctl -l writes the server log beside the data directory (e2e/fixtures/postgres.ts)
  const logFile = path.join(path.dirname(directory), "log");
  return {
    mark: () => fs.statSync(logFile).size,
    since(from) {
      // log_statement writes each line when the statement arrives, before its answer: all are in the log once answered.
      // A statement is one log entry: its first line carries the prefix, a multi-line statement goes on unprefixed.
      const entries = fs.readFileSync(logFile).subarray(from).toString().split(/\n(?=\d+ )/);
      const statements = entries
        .filter((entry) => / LOG: {2}(statement|execute [^:]*):/.test(entry))
        .map((entry) => entry.replace(/^\d+ LOG: {2}(statement|execute [^:]*):\s*/, "").replace(/\s+/g, " ").slice(0, 140));
      // the outbox dispatcher polls on its own timer, not for the request
      const isBackground = (statement: string) => /^update outbox set status = '(dead|running)'/.test(statement);
      return { own: statements.filter((statement) => !isBackground(statement)), background: statements.filter(isBackground).length };
    },
  };
}
