import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { identityReviews, outbox, processes, processLinks, processSigners, stampTransactions } from "@/db/schema";
import { createOrganization } from "@/lib/organizations/create-organization";
import { loadWorkQueue } from "./load-work-queue";
import { lastDays, summarizeDailyActivity } from "./summarize-daily-activity";

// The home's queries against rows written straight into a fresh database: a seeded month whose
// per-day figures are known by construction, and each kind of waiting work with its near misses.
let db: Db;
let close: () => Promise<void>;
let dir: string;
let org: string;
let other: string;
const NOW = new Date("2026-11-28T15:00:00Z"); // 10:00 in Lima
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let sequence = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-home-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
  org = (await createOrganization({ domain: "home.test", ownerEmail: "o@home.test", ownerPassword: "Owner-Password-1" }, db)).organization.id;
  other = (await createOrganization({ domain: "other.test", ownerEmail: "o@other.test", ownerPassword: "Owner-Password-1" }, db)).organization.id;
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function process(organizationId: string, values: Partial<typeof processes.$inferInsert> = {}) {
  sequence += 1;
  const id = `${sequence.toString(16).padStart(32, "0")}:${"0".repeat(16)}`;
  await db.insert(processes).values({ id, organizationId, expireAt: new Date(NOW.getTime() + 30 * DAY), linkExpireAt: new Date(NOW.getTime() + 30 * DAY), createdByName: "api@home.test", createdAt: NOW, ...values });
  return id;
}
async function signer(processId: string, organizationId: string, values: Partial<typeof processSigners.$inferInsert> = {}) {
  sequence += 1;
  const [row] = await db.insert(processSigners).values({ processId, organizationId, position: sequence, nat: "PER", docId: String(10_000_000 + sequence), stampPositions: {}, ...values }).returning();
  return row.id;
}
async function callbackJob(organizationId: string, processId: string, status: "dead" | "done" | "pending") {
  await db.insert(outbox).values({ organizationId, kind: "callback.deliver", payload: { processId, status: "signed" }, status, lastError: status === "dead" ? "refused" : null, doneAt: status === "pending" ? null : NOW });
}

describe("summarizeDailyActivity", () => {
  it("gives, per day of the organization's zone, the counts seeded for that day and none of another organization's", async () => {
    const days = lastDays(NOW, 30, "America/Lima");
    expect(days).toHaveLength(30);
    expect(days[29]).toBe("2026-11-28");
    expect(days[0]).toBe("2026-10-30");
    // day i (0 = oldest) gets i % 3 stamp signatures, i % 4 signer signatures, i % 5 created, i % 2 completed, each at
    // 23:30 in Lima, which is already the next day in UTC: the bucketing must use the zone (today's rows an hour before NOW)
    const expected = days.map((day, i) => ({ day, stampSignatures: i % 3, signerSignatures: i % 4, processesCreated: i % 5, processesCompleted: i % 2 }));
    const at = (day: string) => new Date(Math.min(Date.parse(`${day}T00:00:00Z`) + DAY + 4.5 * HOUR, NOW.getTime() - HOUR));
    const host = await process(org, { createdAt: new Date(NOW.getTime() - 60 * DAY) });
    for (const [i, day] of days.entries()) {
      const when = at(day);
      for (let n = 0; n < i % 3; n++) {
        sequence += 1;
        await db.insert(stampTransactions).values({ organizationId: org, txToken: `tx-${sequence}`, docId: `doc-${sequence}`, operation: "signPDF", status: "done", createdAt: when, completedAt: when });
      }
      for (let n = 0; n < i % 4; n++) await signer(host, org, { status: "signed", signedAt: when });
      for (let n = 0; n < i % 5; n++) await process(org, { createdAt: when });
      for (let n = 0; n < i % 2; n++) await process(org, { createdAt: new Date(NOW.getTime() - 60 * DAY), status: "signed", completedAt: when });
    }
    // near misses: a failed and a time-stamp-only transaction, a rejected process, a day before the window, another organization
    const inside = at(days[10]);
    await db.insert(stampTransactions).values([
      { organizationId: org, txToken: "tx-failed", docId: "doc-failed", operation: "signPDF", status: "failed", createdAt: inside, completedAt: inside },
      { organizationId: org, txToken: "tx-ts", docId: "doc-ts", operation: "signTimeStamp", status: "done", createdAt: inside, completedAt: inside },
      { organizationId: other, txToken: "tx-other", docId: "doc-other", operation: "signPDF", status: "done", createdAt: inside, completedAt: inside },
    ]);
    await process(org, { createdAt: new Date(NOW.getTime() - 60 * DAY), status: "rejected", completedAt: inside });
    await process(org, { createdAt: new Date(Date.parse(`${days[0]}T04:59:00Z`)) }); // 23:59 the day before, in Lima
    await process(other, { createdAt: inside });

    const activity = await summarizeDailyActivity({ organizationId: org, timeZone: "America/Lima", now: NOW, days: 30 }, { db });
    expect(activity).toEqual(expected);
  });
});

describe("loadWorkQueue", () => {
  it("counts each kind of waiting work of the organization, leaving out the near misses, and lists the first items", async () => {
    const queueOrg = (await createOrganization({ domain: "queue.test", ownerEmail: "o@queue.test", ownerPassword: "Owner-Password-1" }, db)).organization.id;
    const empty = await loadWorkQueue({ organizationId: queueOrg, role: "owner", now: NOW }, { db });
    expect(empty).toEqual({
      reviews: { count: 0, oldestAt: null },
      approvals: { count: 0 },
      expiring: { count: 0, items: [] },
      lockedSigners: { count: 0, items: [] },
      deadCallbacks: { count: 0, items: [] },
    });
    for (const organizationId of [queueOrg, other]) {
      // two reviews waiting (the oldest three days old) and one decided
      const reviewed = await process(organizationId);
      for (const [status, createdAt] of [["pending", new Date(NOW.getTime() - 3 * DAY)], ["pending", new Date(NOW.getTime() - HOUR)], ["approved", new Date(NOW.getTime() - 9 * DAY)]] as const) {
        const signerId = await signer(reviewed, organizationId);
        const [link] = await db.insert(processLinks).values({ processId: reviewed, organizationId, signerId, tokenHash: `hash-${++sequence}`, expiresAt: NOW }).returning();
        await db.insert(identityReviews).values({ organizationId, processId: reviewed, signerId, linkId: link.id, status, attempt: 1, checkId: "c", cardBlobKey: "k", portraitBlobKey: "k", selfieBlobKey: "k", card: { numberSource: "printed", mrzValid: false }, createdAt });
      }
      await process(organizationId, { status: "approval_pending" });
      // expiring: in 24 h with a pending signer (counted); all signed, in 72 h, already past, not open (not counted)
      const soon = await process(organizationId, { description: "vence pronto", expireAt: new Date(NOW.getTime() + DAY) });
      await signer(soon, organizationId);
      await signer(soon, organizationId, { status: "signed", signedAt: NOW });
      await signer(await process(organizationId, { expireAt: new Date(NOW.getTime() + DAY) }), organizationId, { status: "signed", signedAt: NOW });
      await signer(await process(organizationId, { expireAt: new Date(NOW.getTime() + 3 * DAY) }), organizationId);
      await signer(await process(organizationId, { expireAt: new Date(NOW.getTime() - HOUR) }), organizationId);
      await signer(await process(organizationId, { status: "approval_pending", expireAt: new Date(NOW.getTime() + DAY) }), organizationId);
      // locked: a pending signer of an open process (counted); of a rejected process, or who signed (not)
      const lockedIn = await process(organizationId, { description: "con bloqueo" });
      await signer(lockedIn, organizationId, { lockedAt: NOW, docId: "44445555" });
      await signer(await process(organizationId, { status: "rejected" }), organizationId, { lockedAt: NOW });
      await signer(lockedIn, organizationId, { lockedAt: NOW, status: "signed", signedAt: NOW });
      // callbacks: a dead one (counted); a dead one redelivered since (not); a done one (not)
      const dead = await process(organizationId, { description: "callback muerto", status: "signed" });
      await callbackJob(organizationId, dead, "dead");
      const redelivered = await process(organizationId, { status: "signed" });
      await callbackJob(organizationId, redelivered, "dead");
      await callbackJob(organizationId, redelivered, "pending");
      await callbackJob(organizationId, await process(organizationId, { status: "signed" }), "done");
    }
    const queue = await loadWorkQueue({ organizationId: queueOrg, role: "owner", now: NOW }, { db });
    expect(queue.reviews).toEqual({ count: 2, oldestAt: new Date(NOW.getTime() - 3 * DAY) });
    expect(queue.approvals).toEqual({ count: 2 });
    expect(queue.expiring).toMatchObject({ count: 1, items: [{ description: "vence pronto", unsignedSigners: 1 }] });
    expect(queue.lockedSigners).toMatchObject({ count: 1, items: [{ description: "con bloqueo", docId: "44445555" }] });
    expect(queue.deadCallbacks).toMatchObject({ count: 1, items: [{ description: "callback muerto", lastError: "refused" }] });
  });

  it.each([
    ["viewer", ["deadCallbacks", "expiring", "lockedSigners"]],
    ["operator", ["deadCallbacks", "expiring", "lockedSigners"]],
    ["admin", ["approvals", "deadCallbacks", "expiring", "lockedSigners", "reviews"]],
    ["owner", ["approvals", "deadCallbacks", "expiring", "lockedSigners", "reviews"]],
  ] as const)("gives a %s only the parts their role may act on or read", async (role, parts) => {
    const queue = await loadWorkQueue({ organizationId: org, role, now: NOW }, { db });
    expect(Object.keys(queue).sort()).toEqual(parts);
  });
});
