// `npm run bench:home`: seeds one organization with 10,000 processes (two signers each, timeline
// events, callback jobs, stamp transactions, spread over 60 days) and times the staff home's data:
// the work queue, the 30-day activity and the latest events, run together as the page runs them.
// Prints figures; asserts nothing. Calls the same use cases the page calls, on PGlite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { createOrganization } from "@/lib/organizations/create-organization";
import { loadWorkQueue } from "@/lib/staff-home/load-work-queue";
import { summarizeDailyActivity } from "@/lib/staff-home/summarize-daily-activity";
import { listRecentProcessEvents } from "@/lib/staff-home/list-recent-process-events";

const TOTAL = Number(process.env.BENCH_PROCESSES ?? 10_000);
const RUNS = 20;

async function seed(db: Db): Promise<string> {
  const { organization } = await createOrganization({ domain: "home-bench.test", ownerEmail: "o@home-bench.test", ownerPassword: "Bench-Owner-1" }, db);
  const org = organization.id;
  const id = sql.raw(`md5(g::text) || ':' || substr(md5('x' || g::text), 1, 16)`);
  // g minutes apart over the last 60 days; every 10th signed, every 10th+1 rejected, every 50th awaiting approval
  await db.execute(sql`
    insert into processes (id, organization_id, status, description, expire_at, link_expire_at, url_callback, created_by_name, created_at, completed_at)
    select ${id}, ${org}::uuid,
      case when g % 10 = 0 then 'signed' when g % 10 = 1 then 'rejected' when g % 50 = 2 then 'approval_pending' else 'pending' end,
      'Proceso ' || g, now() + ((g % 30) || ' days')::interval, now() + interval '30 days', 'https://hooks.example/cb', 'api@bench.test',
      now() - ((g * 8640 / ${TOTAL}) || ' minutes')::interval * 10,
      case when g % 10 in (0, 1) then now() - ((g * 8640 / ${TOTAL}) || ' minutes')::interval * 10 + interval '1 hour' end
    from generate_series(1, ${TOTAL}) g`);
  for (const position of [0, 1]) {
    await db.execute(sql`
      insert into process_signers (process_id, organization_id, position, nat, doc_id, stamp_positions, status, signed_at, locked_at)
      select ${id}, ${org}::uuid, ${position}, 'PER', lpad((g * 2 + ${position})::text, 8, '1'), '{}'::jsonb,
        case when g % 10 = 0 or (g % 3 = 0 and ${position} = 0) then 'signed' else 'pending' end,
        case when g % 10 = 0 or (g % 3 = 0 and ${position} = 0) then now() - ((g * 8640 / ${TOTAL}) || ' minutes')::interval * 10 + interval '30 minutes' end,
        case when g % 200 = 5 and ${position} = 1 then now() end
      from generate_series(1, ${TOTAL}) g`);
  }
  await db.execute(sql`
    insert into process_events (process_id, organization_id, kind, actor, created_at)
    select ${id}, ${org}::uuid, k, 'api@bench.test', now() - ((g * 8640 / ${TOTAL}) || ' minutes')::interval * 10
    from generate_series(1, ${TOTAL}) g, unnest(array['created', 'links_issued', 'notified']) k`);
  await db.execute(sql`
    insert into outbox (organization_id, kind, payload, status, attempts, done_at)
    select ${org}::uuid, 'callback.deliver', jsonb_build_object('processId', ${id}, 'status', 'signed'),
      case when g % 100 = 0 then 'dead' else 'done' end, 1, now()
    from generate_series(1, ${TOTAL}) g where g % 10 in (0, 1)`);
  await db.execute(sql`
    insert into stamp_transactions (organization_id, tx_token, doc_id, operation, status, created_at, completed_at)
    select ${org}::uuid, 'tx-' || g, 'doc-' || g, 'signPDF', 'done', now() - (g || ' minutes')::interval * 17, now() - (g || ' minutes')::interval * 17
    from generate_series(1, ${TOTAL / 2}) g`);
  await db.execute(sql`analyze`);
  return org;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-bench-home-"));
  const { db, close } = await openDatabase({ dataDir: dir });
  try {
    const seeding = performance.now();
    const organizationId = await seed(db);
    console.log(`seeded ${TOTAL} processes in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const load = () =>
      Promise.all([
        loadWorkQueue({ organizationId, role: "owner", now: new Date() }, { db }),
        summarizeDailyActivity({ organizationId, timeZone: "America/Lima", now: new Date(), days: 30 }, { db }),
        listRecentProcessEvents({ organizationId, limit: 10 }, { db }),
      ]);
    const [queue, days] = await load(); // warm-up, and the figures the page would show
    console.log(`queue: ${JSON.stringify({ reviews: queue.reviews?.count, approvals: queue.approvals?.count, expiring: queue.expiring?.count, locked: queue.lockedSigners?.count, dead: queue.deadCallbacks?.count })}`);
    console.log(`30 days: ${days.reduce((s, d) => s + d.processesCreated, 0)} created, ${days.reduce((s, d) => s + d.signerSignatures + d.stampSignatures, 0)} signatures`);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      await load();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const parts = {
      queue: () => loadWorkQueue({ organizationId, role: "owner", now: new Date() }, { db }),
      activity: () => summarizeDailyActivity({ organizationId, timeZone: "America/Lima", now: new Date(), days: 30 }, { db }),
      events: () => listRecentProcessEvents({ organizationId, limit: 10 }, { db }),
    };
    for (const [name, part] of Object.entries(parts)) {
      const each: number[] = [];
      for (let run = 0; run < 10; run++) {
        const start = performance.now();
        await part();
        each.push(performance.now() - start);
      }
      console.log(`  ${name}: median ${each.sort((a, b) => a - b)[5].toFixed(1)} ms`);
    }
    console.log(`home data on PGlite, ${TOTAL} processes: median ${times[RUNS / 2].toFixed(1)} ms, p90 ${times[Math.floor(RUNS * 0.9)].toFixed(1)} ms, max ${times[RUNS - 1].toFixed(1)} ms (${RUNS} runs)`);
  } finally {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
