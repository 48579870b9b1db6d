import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { settlePlans } from "@/db/testing/settle-plans";
import { findProcessPage } from "@/lib/processes/find-process-page";
import { findLatestReview } from "@/lib/identity-assurance/find-identity-review";
import { collectProcessEvidence } from "@/lib/evidence/collect-process-evidence";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { executedRows } from "@/db/executed-rows";
import { keyPurposes } from "@/lib/server/worker-pools";

/**
 * Lookups on request paths must cost what their answer costs, not what the database has gathered:
 * a year of one busy organization is hundreds of thousands of rows that are never deleted. Each
 * lookup runs in a transaction over 20,000 processes (signers, links, identity reviews) and the
 * backend's own counters say which scans it started and how many rows it read; a plan that
 * reads every row (a sequential scan, or a sort of the whole organization) fails here.
 */
const PROCESSES = 20_000;

let dir: string;
let close: () => Promise<void>;
let db: Db;
let organizationId: string;
let quietOrganizationId: string;

const rowsOf = (result: unknown) => executedRows<Record<string, string | number | null>>(result);

/**
 * What `work` read of `table`: the backend's counts not yet flushed to the shared statistics
 * (pg_stat_xact_*), which may still hold a just-ended transaction's, taken before and after it;
 * measured once the statements' plans have settled (the plan later requests get).
 */
async function readsOf<T>(table: string, work: (tx: Db) => Promise<T>): Promise<{ result: T; seqScans: number; rowsRead: number }> {
  await settlePlans(db, work);
  return db.transaction(async (tx) => {
    const counters = async () => {
      const [row] = rowsOf(await tx.execute(sql`select coalesce(seq_scan, 0) as seq_scans, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as rows_read from pg_stat_xact_user_tables where relname = ${table}`));
      return { seqScans: Number(row?.seq_scans ?? 0), rowsRead: Number(row?.rows_read ?? 0) };
    };
    const before = await counters();
    const result = await work(tx as unknown as Db);
    const after = await counters();
    return { result, seqScans: after.seqScans - before.seqScans, rowsRead: after.rowsRead - before.rowsRead };
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-history-"));
  fs.mkdirSync(path.join(dir, "data"));
  ({ db, close } = await openDatabase({ dataDir: path.join(dir, "data") }));
  [{ id: organizationId }] = rowsOf(await db.execute(sql`insert into organizations (domain, display_name) values ('history.example', 'History') returning id`)) as { id: string }[];
  // a second organization, as busy as the first one for a while, then quiet while the first one went on
  [{ id: quietOrganizationId }] = rowsOf(await db.execute(sql`insert into organizations (domain, display_name) values ('quiet.example', 'Quiet') returning id`)) as { id: string }[];
  await db.execute(sql`insert into audit_log (organization_id, occurred_at, actor, action, target, prev_hash, hash)
    select case when g % 3 = 0 then ${quietOrganizationId}::uuid else ${organizationId}::uuid end, now(), 'earlier', 'process.created', 'e' || g, md5('prev-e' || g), md5('e' || g) from generate_series(1, 30000) g`);
  // one signer and one link per process, created a minute apart, in every status
  await db.execute(sql`insert into processes (id, organization_id, status, expire_at, link_expire_at, created_by_name, created_at)
    select 'h' || g || ':history', ${organizationId}, (array['pending', 'signed', 'rejected', 'expired'])[1 + g % 4], now() + interval '30 days', now() + interval '30 days', 'history', now() - g * interval '1 minute'
    from generate_series(1, ${PROCESSES}::int) g`);
  await db.execute(sql`insert into process_signers (process_id, organization_id, position, nat, doc_id, stamp_positions)
    select 'h' || g || ':history', ${organizationId}, 1, 'PER', lpad(g::text, 8, '0'), '{}'::jsonb from generate_series(1, ${PROCESSES}::int) g`);
  await db.execute(sql`insert into process_links (process_id, organization_id, signer_id, token_hash, expires_at)
    select s.process_id, s.organization_id, s.id, encode(sha256(s.id::text::bytea), 'hex'), now() + interval '30 days' from process_signers s where s.organization_id = ${organizationId}`);
  // one signer in four went to review, some twice
  await db.execute(sql`insert into identity_reviews (organization_id, process_id, signer_id, link_id, status, attempt, check_id, card_blob_key, portrait_blob_key, selfie_blob_key, card, created_at)
    select l.organization_id, l.process_id, l.signer_id, l.id, 'rejected', attempt, 'check', 'c', 'p', 's', '{}'::jsonb, now() - (30 - attempt) * interval '1 minute'
    from process_links l cross join generate_series(1, 2) attempt where l.organization_id = ${organizationId} and split_part(substr(l.process_id, 2), ':', 1)::int % 4 = 0`);
  // each process's file, the two page views of its signer and two audit entries naming it
  await db.execute(sql`insert into process_documents (process_id, organization_id, index, name, pages, original_blob_key, original_sha256, current_blob_key, sha256)
    select id, organization_id, 0, 'a.pdf', 1, 'o', repeat('0', 64), 'c', repeat('0', 64) from processes where organization_id = ${organizationId}`);
  await db.execute(sql`insert into signer_page_views (signer_id, document_id, process_id, organization_id, page_index, document_sha256, address, user_agent, shown_at)
    select s.id, d.id, d.process_id, d.organization_id, page, repeat('0', 64), '127.0.0.1', 'test', now() from process_documents d join process_signers s on s.process_id = d.process_id cross join generate_series(0, 1) page
    where d.organization_id = ${organizationId}`);
  await db.execute(sql`insert into audit_log (organization_id, occurred_at, actor, action, target, prev_hash, hash)
    select ${organizationId}, now(), 'history', action, p.id, md5('prev' || p.id || action), md5(p.id || action) from processes p cross join unnest(array['process.created', 'signer.signed']) action where p.organization_id = ${organizationId}`);
  await db.execute(sql`analyze`);
}, 180_000);

afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the process list reads one page, whatever the organization's history", () => {
  const limit = 20;

  it("first page, a page deep in the list, and a status filter: no sequential scan, about a page of rows read", async () => {
    const first = await readsOf("processes", (tx) => findProcessPage({ organizationId, query: { limit } as never }, tx));
    expect(first.result.records).toHaveLength(limit);
    const deep = await readsOf("processes", (tx) => findProcessPage({ organizationId, query: { limit, last_item: { processId: "h15000:history", date: new Date(Date.now() - 15_000 * 60_000).toISOString() } } as never }, tx));
    expect(deep.result.records).toHaveLength(limit);
    const signed = await readsOf("processes", (tx) => findProcessPage({ organizationId, query: { limit, status: "signed" } as never }, tx));
    expect(signed.result.records.every((record) => JSON.stringify(record).includes("signed"))).toBe(true);
    for (const page of [first, deep, signed]) {
      expect(page.seqScans).toBe(0);
      expect(page.rowsRead).toBeLessThan(limit * 5);
    }
  });

  it("newest first: the pages follow each other without a gap or a repeat", async () => {
    const one = await findProcessPage({ organizationId, query: { limit: 3 } as never }, db);
    const two = await findProcessPage({ organizationId, query: { limit: 3, last_item: { processId: one.next!.processId, date: one.next!.date } } as never }, db);
    const ids = [...one.records, ...two.records].map((record) => JSON.stringify(record).match(/h\d+:history/)![0]);
    expect(ids).toEqual(["h1:history", "h2:history", "h3:history", "h4:history", "h5:history", "h6:history"]);
  });

  it("filtered by a signer's ID number: the signer's index, not every signer of the organization", async () => {
    const page = await readsOf("process_signers", (tx) => findProcessPage({ organizationId, query: { limit } as never, filters: { signerDocId: "00012345" } }, tx));
    expect(page.result.records).toHaveLength(1);
    expect(page.seqScans).toBe(0);
    // the page's own records read a few dozen more; a scan of the organization's signers reads all 20,000
    expect(page.rowsRead).toBeLessThan(200);
  });
});

describe("a signer's latest identity review is read from the signer's own rows", () => {
  it("finds the newest of a signer's reviews without scanning every review", async () => {
    const [{ signer_id: signerId }] = rowsOf(await db.execute(sql`select signer_id from process_links where process_id = 'h400:history'`)) as { signer_id: string }[];
    const latest = await readsOf("identity_reviews", (tx) => findLatestReview(signerId, tx));
    expect(latest.result).toMatchObject({ signerId, attempt: 2 });
    expect(latest.seqScans).toBe(0);
    expect(latest.rowsRead).toBeLessThan(10);
  });
});

describe("a process's evidence reads that process's rows", () => {
  it("its audit entries and page views come from their indexes, not from the organization's whole history", async () => {
    const audit = await readsOf("audit_log", (tx) => collectProcessEvidence({ organizationId, processId: "h777:history" }, tx));
    const views = await readsOf("signer_page_views", (tx) => collectProcessEvidence({ organizationId, processId: "h777:history" }, tx));
    expect(JSON.stringify(audit.result)).toContain("signer.signed");
    for (const reads of [audit, views]) {
      expect(reads.seqScans).toBe(0);
      expect(reads.rowsRead).toBeLessThan(20);
    }
  });
});

describe("an audit entry finds the head of its own organization's chain", () => {
  it("appending to a quiet organization's chain does not read the entries other organizations wrote since", async () => {
    const quiet = await readsOf("audit_log", (tx) => recordAuditEvent({ organizationId: quietOrganizationId, actor: "quiet", action: "process.created", target: "q2" }, tx));
    const busy = await readsOf("audit_log", (tx) => recordAuditEvent({ organizationId, actor: "history", action: "process.created", target: "h0" }, tx));
    for (const reads of [quiet, busy]) {
      expect(reads.seqScans).toBe(0);
      expect(reads.rowsRead).toBeLessThan(10);
    }
  });
});

describe("a token key's purpose is read from the row that names its label", () => {
  it("finds the label among 20,000 certificates without a key on the token, from the label's index", async () => {
    // signer certificates issued with software keys (no label), and a few keys on a PKCS#11 token
    await db.execute(sql`insert into pki_certificates (purpose, environment, subject, serial_number_hex, issuer_name, certificate_der, not_before, not_after, private_key_label)
      select case when g % 1000 = 0 then 'tsa' else 'signer' end, 'test', 'CN=Signer ' || g, 'history' || g, 'CN=History CA', '\\x3000'::bytea, now(), now() + interval '5 years',
        case when g % 1000 = 0 then 'token-key-' || g end
      from generate_series(1, 20000) g`);
    await db.execute(sql`analyze pki_certificates`);
    const found = await readsOf("pki_certificates", (tx) => keyPurposes(tx)("token-key-7000"));
    expect(found.result).toBe("tsa");
    expect(found.seqScans).toBe(0);
    expect(found.rowsRead).toBeLessThan(5);
    const unknown = await readsOf("pki_certificates", (tx) => keyPurposes(tx)("no-such-key"));
    expect(unknown.result).toBeUndefined();
    expect(unknown.seqScans).toBe(0);
  });
});
