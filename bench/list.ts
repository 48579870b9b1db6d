// `npm run bench:list`: seeds 100k processes and times the process list (keyset paging) on the
// first page and on page 500, with and without filters, on PGlite and on PostgreSQL.
// Prints figures; asserts nothing. Calls the same use case the route handler calls.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { executedRows } from "@/db/executed-rows";
import { createOrganization } from "@/lib/organizations/create-organization";
import { listProcesses } from "@/lib/processes/list-processes";
import { ZListProcessesQuery } from "@/lib/processes/schemas";
import { startPostgresCluster, findPostgresBin } from "../e2e/fixtures/postgres";

const TOTAL = Number(process.env.BENCH_PROCESSES ?? 100_000);
const LIMIT = 20;
const RUNS = 40;
const settings = { secretKey: new Uint8Array(32).fill(1), publicUrl: "http://bench.local" };

async function seed(db: Db): Promise<string> {
  const { organization } = await createOrganization({ domain: `bench${Date.now()}.test`, ownerEmail: `o${Date.now()}@bench.test`, ownerPassword: "Bench-Owner-1" }, db);
  const org = organization.id;
  const batch = 20_000;
  for (let start = 0; start < TOTAL; start += batch) {
    const end = Math.min(TOTAL, start + batch) - 1;
    await db.execute(sql`
      insert into processes (id, organization_id, status, description, sign_order, expire_at, link_expire_at, url_callback, labels, read_challenges, created_by_name, created_at)
      select md5(g::text) || ':' || substr(md5('x' || g::text), 1, 16), ${org}::uuid,
        case when g % 10 = 0 then 'signed' when g % 10 = 1 then 'rejected' else 'pending' end,
        'Proceso ' || g, false, now() + interval '30 days', now() + interval '30 days', '', '[]'::jsonb, '["signerId"]'::jsonb,
        'api@bench.test', now() - (g || ' seconds')::interval
      from generate_series(${start}::int, ${end}::int) g`);
    await db.execute(sql`
      insert into process_documents (process_id, organization_id, index, name, pages, original_blob_key, original_sha256, current_blob_key, sha256)
      select md5(g::text) || ':' || substr(md5('x' || g::text), 1, 16), ${org}::uuid, 0, 'contrato.pdf', 2, 'k', repeat('0', 64), 'k', repeat('0', 64)
      from generate_series(${start}::int, ${end}::int) g`);
    await db.execute(sql`
      insert into process_signers (process_id, organization_id, position, nat, doc_id, stamp_positions)
      select md5(g::text) || ':' || substr(md5('x' || g::text), 1, 16), ${org}::uuid, 0, 'PER', lpad((g % 99999999)::text, 8, '1'), '{}'::jsonb
      from generate_series(${start}::int, ${end}::int) g`);
  }
  await db.execute(sql`analyze`);
  return org;
}

async function cursorAt(db: Db, org: string, offset: number, status?: string) {
  const result = await db.execute(sql`
    select id, created_at from processes where organization_id = ${org}::uuid ${status ? sql`and status = ${status}` : sql``}
    order by created_at desc, id desc
    offset least(${offset}, (select count(*) - 1 from processes where organization_id = ${org}::uuid ${status ? sql`and status = ${status}` : sql``})) limit 1`);
  const rows = executedRows<{ id: string; created_at: string | Date }>(result);
  return JSON.stringify({ processId: rows[0].id, date: new Date(rows[0].created_at).toISOString() });
}

async function time(db: Db, org: string, raw: Record<string, string>) {
  const query = ZListProcessesQuery.parse(raw);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await listProcesses({ organizationId: org, query }, { db, settings });
    samples.push(performance.now() - t0);
  }
  samples.sort((x, y) => x - y);
  return { p50: samples[Math.floor(RUNS * 0.5)], p95: samples[Math.floor(RUNS * 0.95)] };
}

async function run(kind: string, db: Db) {
  const seedStart = performance.now();
  const org = await seed(db);
  console.log(`\n${kind}: seeded ${TOTAL} processes (+ documents and signers) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const deep = (LIMIT * 499).toString(); // the cursor is the last row of page 499
  const cases: [string, Record<string, string>][] = [
    ["first page", { limit: String(LIMIT) }],
    ["page 500", { limit: String(LIMIT), last_item: await cursorAt(db, org, Number(deep) - 1) }],
    ["first page, status=signed", { limit: String(LIMIT), status: "signed" }],
    ["page 500, status=signed", { limit: String(LIMIT), status: "signed", last_item: await cursorAt(db, org, Number(deep) - 1, "signed") }],
    ["first page, creation range", { limit: String(LIMIT), creation_start: "20000101T00:00:00+00:00", creation_end: "20991231T00:00:00+00:00" }],
  ];
  for (const [name, query] of cases) {
    const { p50, p95 } = await time(db, org, query);
    console.log(`  ${name.padEnd(30)} p50 ${p50.toFixed(2).padStart(7)} ms   p95 ${p95.toFixed(2).padStart(7)} ms`);
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-bench-list-"));
  const embedded = await openDatabase({ dataDir: dir });
  try {
    await run("PGlite", embedded.db);
  } finally {
    await embedded.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!findPostgresBin("initdb")) {
    console.log("\nPostgreSQL: skipped (initdb not installed)");
    return;
  }
  const cluster = await startPostgresCluster();
  const pg = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: dir });
  try {
    await run("PostgreSQL", pg.db);
  } finally {
    await pg.close();
    cluster.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
