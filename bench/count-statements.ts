// `npx tsx bench/on-postgres.ts bench/count-statements.ts`: the SQL statements one warm request runs,
// read from PostgreSQL's own statement log (log_statement = all), for signPDF (plain, and stamp +
// QR) and signTimeStamp. Prints the count and the statements; asserts nothing.
import fs from "node:fs";
import path from "node:path";
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";

const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const image = fixture("images/portrait-413x531.jpg");
const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };

async function statementLog(adminUrl: string) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe("alter system set log_statement = 'all'");
  await sql.unsafe("alter system set log_line_prefix = '%p '");
  await sql.unsafe("select pg_reload_conf()");
  const [{ directory }] = await sql.unsafe<{ directory: string }[]>("select current_setting('data_directory') as directory");
  await sql.end();
  // pg_ctl -l writes the server log beside the data directory (e2e/fixtures/postgres.ts)
  return path.join(path.dirname(directory), "log");
}

async function main() {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error("run through bench/on-postgres.ts");
  const logFile = await statementLog(adminUrl);
  const server = await startTestServer({ env: { LEVEL_AUDIT_RATE: "0" } });
  try {
    const api = new StampApiClient(server.baseUrl);
    await api.login("v2");
    const tsq = opensslTsQuery(pdf);
    const requests: [string, () => Promise<Response>][] = [
      ["signPDF binary, no image", () => api.signPdf(plain, { pdf })],
      ["signPDF stamp + QR", () => api.signPdf({ ...plain, page: 1, position_x: 40, position_y: 40, qr_type: "auto" }, { pdf, image })],
      ["signTimeStamp", () => api.postForm("/api/v2/signTimeStamp", {}, { tsq_file: tsq })],
    ];
    for (const [name, send] of requests) {
      for (let i = 0; i < 3; i++) await (await send()).arrayBuffer(); // warm: keys, caches, CRLs
      const from = fs.statSync(logFile).size;
      const response = await send();
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      // log_statement writes each line when the statement arrives, before its answer: all are in the log now
      // a statement is one log entry: its first line carries the prefix, a multi-line statement goes on unprefixed
      const entries = fs.readFileSync(logFile).subarray(from).toString().split(/\n(?=\d+ )/);
      const statements = entries
        .filter((entry) => / LOG: {2}(statement|execute [^:]*):/.test(entry))
        .map((entry) => entry.replace(/^\d+ LOG: {2}(statement|execute [^:]*):\s*/, "").replace(/\s+/g, " ").slice(0, 140));
      // the outbox dispatcher polls on its own timer, not for this request
      const background = statements.filter((statement) => /^update outbox set status = '(dead|running)'/.test(statement));
      const own = statements.filter((statement) => !background.includes(statement));
      console.log(`\n${name}: ${own.length} statements${background.length ? ` (and ${background.length} of the outbox dispatcher's poll meanwhile, not counted)` : ""}`);
      for (const statement of own) console.log(`  ${statement}`);
    }
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
