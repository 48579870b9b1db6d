import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { outbox } from "@/db/schema";
import { buryAbandonedJobs, claimDueJobs, releaseLeasesOf, type ClaimedJob } from "./claim-due-jobs";
import { enqueue } from "./enqueue";
import { markJobDone, markJobFailed } from "./finish-job";
import { outboxOwner } from "./outbox-owner";
import { PermanentJobFailure, startDispatcher, type JobHandler } from "./run-dispatcher";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const database = await openDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "fv-outbox-")) });
  db = database.db;
  close = database.close;
}, 60_000);
afterAll(async () => close?.());
beforeEach(async () => {
  await db.delete(outbox);
});

const lease = { limit: 10, leaseSeconds: 60 };
// payloads pass their kind's schema (lib/outbox/job-payloads.ts); the handlers here never read them
const notification = { processId: "p", signerId: "s", linkId: "l" };
const rowOf = async (id: number) => (await db.select().from(outbox).where(eq(outbox.id, id)))[0];
const expireLeases = () => db.update(outbox).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(outbox.status, "running"));

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("claiming", () => {
  it("counts each claim as an attempt, with an owner and a lease", async () => {
    const id = await enqueue({ kind: "email.send", payload: notification, maxAttempts: 3 }, db);
    const [job] = await claimDueJobs({ ...lease, owner: "a#1" }, db);
    expect(job).toMatchObject({ id, status: "running", attempts: 1, owner: "a#1" });
    expect(job.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await claimDueJobs({ ...lease, owner: "b#1" }, db)).toEqual([]); // leased: nobody else gets it
  });

  it("reclaims an expired lease as the next attempt and buries it after the last one", async () => {
    const id = await enqueue({ kind: "email.send", payload: notification, maxAttempts: 2 }, db);
    await claimDueJobs({ ...lease, owner: "a#1" }, db);
    await expireLeases();
    const [second] = await claimDueJobs({ ...lease, owner: "b#1" }, db);
    expect(second).toMatchObject({ id, attempts: 2, owner: "b#1", lastError: "worker stopped during attempt 1 of 2 (lease expired)" });
    await expireLeases();
    expect(await claimDueJobs({ ...lease, owner: "c#1" }, db)).toEqual([]); // out of attempts: not claimed again
    const dead = await buryAbandonedJobs(db);
    expect(dead.map((d) => d.id)).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ status: "dead", attempts: 2, lastError: "worker stopped during attempt 2 of 2 (lease expired)", owner: null });
  });

  it("fences final updates by (id, attempts): a stale worker changes nothing", async () => {
    const id = await enqueue({ kind: "email.send", payload: notification, maxAttempts: 5 }, db);
    const [stale] = await claimDueJobs({ ...lease, owner: "a#1" }, db);
    await expireLeases();
    const [fresh] = await claimDueJobs({ ...lease, owner: "b#1" }, db);
    expect(await markJobDone(stale, db)).toBe(false);
    expect(await markJobFailed({ job: stale, reason: "late", dead: true, retryAt: new Date() }, db)).toBe(false);
    expect(await rowOf(id)).toMatchObject({ status: "running", attempts: 2, owner: "b#1" });
    expect(await markJobDone(fresh, db)).toBe(true);
    expect(await rowOf(id)).toMatchObject({ status: "done", owner: null });
    expect(await markJobDone(fresh, db)).toBe(false); // and only once
  });

  it("releases at start the leases of this instance's previous pid, not those of other instances", async () => {
    const [mine, last, other] = [
      await enqueue({ kind: "email.send", payload: notification, maxAttempts: 3 }, db),
      await enqueue({ kind: "email.send", payload: notification, maxAttempts: 1 }, db),
      await enqueue({ kind: "email.send", payload: notification, maxAttempts: 3 }, db),
    ];
    const before = outboxOwner({ instanceId: "web_1", port: 3000, pid: 41 });
    const now = outboxOwner({ instanceId: "web_1", port: 3000, pid: 42 });
    await claimDueJobs({ limit: 2, leaseSeconds: 600, owner: before.owner }, db);
    // "web_1" must not match "webX1": the underscore is escaped in the pattern
    await claimDueJobs({ limit: 1, leaseSeconds: 600, owner: outboxOwner({ instanceId: "webX1", port: 3000, pid: 41 }).owner }, db);
    const { released, dead } = await releaseLeasesOf({ ownerPattern: now.previousOwners, except: now.owner }, db);
    expect(released).toBe(2);
    expect(dead.map((d) => d.id)).toEqual([last]);
    expect(await rowOf(mine)).toMatchObject({ status: "pending", attempts: 1, owner: null, lastError: "worker stopped during attempt 1 of 3 (instance restarted)" });
    expect(await rowOf(last)).toMatchObject({ status: "dead", attempts: 1 });
    expect(await rowOf(other)).toMatchObject({ status: "running", owner: "webX1#41" });
  });
});

describe("dispatcher", () => {
  const run = (handlers: Record<string, JobHandler>) =>
    startDispatcher({ handlers, retryBaseMs: 10, leaseSeconds: 30, owner: { owner: "t#1", previousOwners: "t#%" } }, db);

  it("retries a failing job with backoff and records success", async () => {
    let calls = 0;
    const stop = run({ "email.send": async () => { if (++calls < 3) throw new Error(`transient ${calls}`); } });
    try {
      const id = await enqueue({ kind: "email.send", payload: notification, maxAttempts: 5 }, db);
      const row = await waitFor(async () => { const r = await rowOf(id); return r.status === "done" && r; });
      expect(row).toMatchObject({ attempts: 3, lastError: "transient 2" });
    } finally {
      stop();
    }
  });

  it("gives up after max_attempts and after a permanent failure, telling the domain once with the reason", async () => {
    const deaths: [number, string][] = [];
    const failing: JobHandler = async (job) => {
      throw job.payload.transactionId === "permanent" ? new PermanentJobFailure("bad document") : new Error("still down");
    };
    failing.onDead = async (job, death) => void deaths.push([job.id, death.reason]);
    const stop = run({ "stamp.sign": failing });
    try {
      const always = await enqueue({ kind: "stamp.sign", payload: { transactionId: "t" }, maxAttempts: 3 }, db);
      const permanent = await enqueue({ kind: "stamp.sign", payload: { transactionId: "permanent" }, maxAttempts: 3 }, db);
      await waitFor(async () => deaths.length === 2);
      expect(await rowOf(always)).toMatchObject({ status: "dead", attempts: 3, lastError: "still down" });
      expect(await rowOf(permanent)).toMatchObject({ status: "dead", attempts: 1, lastError: "bad document" });
      expect(deaths.sort()).toEqual([[always, "still down"], [permanent, "bad document"]].sort());
    } finally {
      stop();
    }
  });

  it("buries a job whose worker died on its last attempt and tells the domain", async () => {
    const deaths: ClaimedJob[] = [];
    const handler: JobHandler = async () => undefined;
    handler.onDead = async (job) => void deaths.push(job);
    const id = await enqueue({ kind: "stamp.sign", payload: { transactionId: "t" }, maxAttempts: 1 }, db);
    await claimDueJobs({ ...lease, owner: "gone#1" }, db);
    await expireLeases();
    const stop = run({ "stamp.sign": handler });
    try {
      await waitFor(async () => deaths.length === 1);
      expect(deaths[0]).toMatchObject({ id, status: "dead", lastError: "worker stopped during attempt 1 of 1 (lease expired)" });
    } finally {
      stop();
    }
  });
});
