import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { createClusterDatabase, findPostgresBin, startPostgresCluster } from "@/e2e/fixtures/postgres";
import { createCredential } from "@/lib/credentials/create-credential";
import { revokeCredential } from "@/lib/credentials/revoke-credential";
import { setCredentialRole } from "@/lib/credentials/set-credential-role";
import { createOrganization } from "@/lib/organizations/create-organization";
import { setOrganizationStatus } from "@/lib/organizations/set-organization-status";
import { listAuditEvents } from "./list-audit-events";
import { AUDIT_CHAIN_KEY, recordAuditEvent } from "./record-audit-event";
import { verifyAuditChain } from "./verify-audit-chain";

let db: Db;
let close: () => Promise<void>;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-audit-"));
  const database = await openDatabase({ dataDir: dir });
  db = database.db;
  close = database.close;
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function newOrganization(domain: string) {
  const { organization } = await createOrganization({ domain, ownerEmail: `o@${domain}`, ownerPassword: "Owner-Password-1" }, db);
  return organization.id;
}

describe("audit chain", () => {
  it("appends, lists newest first with keyset paging, and verifies", async () => {
    const org = await newOrganization("append.test");
    for (let i = 0; i < 5; i++) {
      await recordAuditEvent({ organizationId: org, actor: "a@append.test", action: "process.created", target: `p${i}`, detail: { i, nested: { b: 1, a: [1, "x"] } } }, db);
    }
    const first = await listAuditEvents({ organizationId: org, limit: 3 }, db);
    expect(first.entries.map((e) => e.target)).toEqual(["p4", "p3", "p2"]);
    const second = await listAuditEvents({ organizationId: org, limit: 3, before: first.nextCursor! }, db);
    expect(second.entries.map((e) => e.target)).toEqual(["p1", "p0"]);
    expect(second.nextCursor).toBeNull();
    expect(await verifyAuditChain({ organizationId: org }, db)).toEqual({ intact: true, entries: 5 });
  });

  it("keeps chains apart per organization and for platform events", async () => {
    const a = await newOrganization("scope-a.test");
    const b = await newOrganization("scope-b.test");
    await recordAuditEvent({ organizationId: a, actor: "x", action: "staff.login" }, db);
    await recordAuditEvent({ organizationId: b, actor: "y", action: "staff.login" }, db);
    await recordAuditEvent({ organizationId: null, actor: "nobody@nowhere.test", action: "staff.login_failed" }, db);
    expect((await listAuditEvents({ organizationId: a }, db)).entries.map((e) => e.actor)).toEqual(["x"]);
    expect((await listAuditEvents({ organizationId: null }, db)).entries.some((e) => e.actor === "nobody@nowhere.test")).toBe(true);
    expect((await verifyAuditChain({ organizationId: null }, db)).intact).toBe(true);
  });

  it("reports the entry whose detail was edited in the database", async () => {
    const org = await newOrganization("tamper.test");
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await recordAuditEvent({ organizationId: org, actor: "a", action: "credential.created", target: `c${i}`, detail: { role: "viewer" } }, db)).id);
    await db.execute(sql`update audit_log set detail = '{"role":"admin"}'::jsonb where id = ${ids[2]}`);
    expect(await verifyAuditChain({ organizationId: org }, db)).toEqual({ intact: false, entries: 3, brokenAt: { id: ids[2], reason: "hash_mismatch" } });
  });

  it("reports the entry after a deleted one", async () => {
    const org = await newOrganization("delete.test");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await recordAuditEvent({ organizationId: org, actor: "a", action: "process.rejected", target: `p${i}` }, db)).id);
    await db.execute(sql`delete from audit_log where id = ${ids[1]}`);
    const report = await verifyAuditChain({ organizationId: org }, db);
    expect(report).toEqual({ intact: false, entries: 2, brokenAt: { id: ids[2], reason: "prev_hash_mismatch" } });
  });

  it("keeps one chain under 20 concurrent appends", async () => {
    const org = await newOrganization("concurrent.test");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => recordAuditEvent({ organizationId: org, actor: `w${i}`, action: "process.notified", target: `p${i}` }, db)),
    );
    const report = await verifyAuditChain({ organizationId: org }, db);
    expect(report).toEqual({ intact: true, entries: 20 });
    const { rows } = (await db.execute(sql`select count(distinct prev_hash)::int as n from audit_log where organization_id = ${org}`)) as unknown as { rows: { n: number }[] };
    expect(rows[0].n).toBe(20);
  });

  it("joins the caller's transaction: a rollback leaves no entry", async () => {
    const org = await newOrganization("rollback.test");
    await expect(
      db.transaction(async (tx) => {
        await recordAuditEvent({ organizationId: org, actor: "a", action: "process.created", target: "gone" }, tx);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const page = await listAuditEvents({ organizationId: org }, db);
    expect(page.entries.filter((e) => e.target === "gone")).toEqual([]);
  });

  it("is written by the credential and organization use cases, attributed to the actor", async () => {
    const org = await newOrganization("usecases.test");
    const credential = await createCredential({ organizationId: org, clientname: "api@usecases.test", secret: "Secret-Value-1", role: "viewer", actor: "o@usecases.test" }, db);
    await setCredentialRole({ organizationId: org, credentialId: credential.id, role: "operator", actor: "o@usecases.test" }, db);
    await revokeCredential({ organizationId: org, credentialId: credential.id, actor: "o@usecases.test" }, db);
    await setOrganizationStatus({ domain: "usecases.test", status: "suspended", actor: "root@platform.test" }, db);
    await setOrganizationStatus({ domain: "usecases.test", status: "active", actor: "root@platform.test" }, db);
    const { entries } = await listAuditEvents({ organizationId: org }, db);
    expect(entries.map((e) => [e.actor, e.action, e.target]).reverse()).toEqual([
      ["o@usecases.test", "credential.created", "api@usecases.test"],
      ["o@usecases.test", "credential.role_changed", "api@usecases.test"],
      ["o@usecases.test", "credential.revoked", "api@usecases.test"],
      ["root@platform.test", "organization.suspended", "usecases.test"],
      ["root@platform.test", "organization.reactivated", "usecases.test"],
    ]);
    expect(await verifyAuditChain({ organizationId: org }, db)).toEqual({ intact: true, entries: 5 });
  });
});

// PGlite runs one statement at a time; only PostgreSQL lets two appends read the same last entry
describe.skipIf(!findPostgresBin("initdb"))("audit chain on PostgreSQL", () => {
  let cluster: Awaited<ReturnType<typeof startPostgresCluster>>;
  let pg: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    pg = await openDatabase({ databaseUrl: await createClusterDatabase(cluster.adminUrl, "audit_chain"), dataDir: dir });
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
    cluster?.stop();
  });

  it("keeps each chain linear under concurrent appends, alone and inside transactions", async () => {
    const { organization } = await createOrganization({ domain: "pg-concurrent.test", ownerEmail: "o@pg-concurrent.test", ownerPassword: "Owner-Password-1" }, pg.db);
    const org = organization.id;
    const before = await verifyAuditChain({ organizationId: org }, pg.db);
    const platformBefore = await verifyAuditChain({ organizationId: null }, pg.db);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const event = { organizationId: i % 5 === 0 ? null : org, actor: `w${i}`, action: "process.notified" as const, target: `p${i}` };
        if (i % 2 === 0) return recordAuditEvent(event, pg.db);
        // two entries in one transaction: it holds its first entry uncommitted while others read the chain
        return pg.db.transaction(async (tx) => {
          await recordAuditEvent(event, tx);
          await recordAuditEvent({ ...event, target: `${event.target}-second` }, tx);
        });
      }),
    );
    const orgEntries = 30 - 6 + 12; // 24 writers, the 12 odd ones write twice
    expect(await verifyAuditChain({ organizationId: org }, pg.db)).toEqual({ intact: true, entries: before.entries + orgEntries });
    expect(await verifyAuditChain({ organizationId: null }, pg.db)).toEqual({ intact: true, entries: platformBefore.entries + 6 + 3 });
  });

  it("refuses a second entry after the same one (a fork), for an organization and the platform", async () => {
    const { organization } = await createOrganization({ domain: "pg-fork.test", ownerEmail: "o@pg-fork.test", ownerPassword: "Owner-Password-1" }, pg.db);
    for (const organizationId of [organization.id, null]) {
      const last = await recordAuditEvent({ organizationId, actor: "a", action: "process.created", target: "x" }, pg.db);
      const fork = pg.db.execute(sql`insert into audit_log (organization_id, occurred_at, actor, action, prev_hash, hash)
        select organization_id, now(), 'b', 'process.created', prev_hash, md5(random()::text) from audit_log where id = ${last.id}`);
      const error = await fork.then(() => undefined, (e: unknown) => e);
      expect(isUniqueViolation(error, AUDIT_CHAIN_KEY)).toBe(true);
    }
  });
});
