// `npx tsx bench/on-postgres.ts bench/count-statements.ts`: the SQL statements one warm request runs,
// read from PostgreSQL's own statement log (log_statement = all), for signPDF (plain, and stamp +
// QR) and signTimeStamp. Prints the count and the statements; asserts nothing.
import { startTestServer } from "../e2e/fixtures/start-test-server";
import { StampApiClient, fixture } from "../e2e/fixtures/stamp-api-client";
import { opensslTsQuery } from "../e2e/fixtures/independent-validators";
import { openStatementLog } from "./statement-log";

const pdf = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const image = fixture("images/portrait-413x531.jpg");
const plain = { names: "José", last_names: "Pérez", person_id: "12345678", binary_resp: 1 };

async function main() {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error("run through bench/on-postgres.ts");
  const log = await openStatementLog(adminUrl);
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
      const from = log.mark();
      const response = await send();
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      const { own, background } = log.since(from);
      console.log(`\n${name}: ${own.length} statements${background ? ` (and ${background} of the outbox dispatcher's poll meanwhile, not counted)` : ""}`);
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
