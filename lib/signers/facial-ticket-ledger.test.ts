import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { facialTickets, processSigners } from "@/db/schema";
import { verifySignerIdentity } from "./verify-signer-identity";
import { admitFacialTicket, settleFacialTicket, spendFacialTicket } from "./facial-ticket-ledger";
import { signerTestWorld } from "./testing/signer-test-world";

const world = signerTestWorld();
const { newProcess } = world;
let db: Db;
beforeAll(() => {
  db = world.db;
});

describe("facial ticket ledger", () => {
  async function facialSigner(docId: string) {
    const { tokens } = await newProcess("per-signer", { signers: [{ doc_id: docId, signChallenges: ["facial"] }] });
    return (await verifySignerIdentity({ token: tokens[0], docId }, db)).signerId;
  }

  it("10 parallel ticket requests: exactly 6 are admitted, the rest refused with a Retry-After within 10 minutes", async () => {
    const signerId = await facialSigner("13131313");
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => admitFacialTicket({ signerId, nonce: `nonce-par-${i}`.padEnd(16, "x") }, db)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(6);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason);
    expect(refused.every((r) => r.reason === "too_many_tickets" && r.code === "RATE_LIMITED" && r.retryAfterSeconds > 0 && r.retryAfterSeconds <= 600)).toBe(true);
  });

  it("a ticket is spent once under parallel uploads; a retry gives the try back but counts toward the hour's 10", async () => {
    const signerId = await facialSigner("14141414");
    await admitFacialTicket({ signerId, nonce: "nonce-once-aaaaa" }, db);
    const spent = await Promise.allSettled(Array.from({ length: 5 }, () => spendFacialTicket({ signerId, nonce: "nonce-once-aaaaa" }, db)));
    expect(spent.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(spent.filter((o) => o.status === "rejected").every((o) => (o as PromiseRejectedResult).reason.reason === "ticket_used")).toBe(true);
    await settleFacialTicket({ signerId, nonce: "nonce-once-aaaaa", outcome: "retry" }, db);
    const [signer] = await db.select().from(processSigners).where(eq(processSigners.id, signerId));
    expect(signer.facialAttempts).toBe(0);
    await expect(spendFacialTicket({ signerId, nonce: "nonce-unknown-aa" }, db)).rejects.toMatchObject({ reason: "ticket_invalid" });
    // nine more retries this hour (rows written directly: the 10-minute ticket limit is another test's)
    await db.insert(facialTickets).values(Array.from({ length: 9 }, (_, i) => ({ nonce: `nonce-old-${i}`.padEnd(16, "y"), signerId, issuedAt: new Date(Date.now() - 30 * 60_000), usedAt: new Date(), outcome: "retry" as const })));
    await expect(admitFacialTicket({ signerId, nonce: "nonce-late-aaaaa" }, db)).rejects.toMatchObject({ reason: "too_many_retries", code: "RATE_LIMITED" });
    // retries older than an hour no longer count
    await db.update(facialTickets).set({ usedAt: new Date(Date.now() - 61 * 60_000) }).where(eq(facialTickets.signerId, signerId));
    await admitFacialTicket({ signerId, nonce: "nonce-late-aaaaa" }, db);
    expect(await spendFacialTicket({ signerId, nonce: "nonce-late-aaaaa" }, db)).toBe(1);
  });

  it("tickets asked for and left unused past 90 s count as retries (ticket fishing spends the hour's budget)", async () => {
    const signerId = await facialSigner("15151515");
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    // 10 tickets never used, issued 20–29 minutes ago: outside the 10-minute ticket window, inside the hour
    await db.insert(facialTickets).values(Array.from({ length: 10 }, (_, i) => ({ nonce: `nonce-fish-${i}`.padEnd(16, "z"), signerId, issuedAt: minutesAgo(20 + i) })));
    const refused = await admitFacialTicket({ signerId, nonce: "nonce-fish-next0" }, db).catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: "too_many_retries" });
    // the oldest leaves the hour in about 31 minutes
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(30 * 60);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(31 * 60 + 5);
    // counter-test: tickets still within their 90 s do not count
    const fresh = await facialSigner("16161616");
    await db.insert(facialTickets).values(Array.from({ length: 5 }, (_, i) => ({ nonce: `nonce-new-${i}`.padEnd(16, "w"), signerId: fresh, issuedAt: new Date() })));
    await admitFacialTicket({ signerId: fresh, nonce: "nonce-new-next00" }, db);
  });
});
