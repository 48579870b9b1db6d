import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { stampTransactions, users } from "@/db/schema";
import { isUniqueViolation } from "@/db/is-unique-violation";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { generateTxToken } from "./generate-tx-token";
import { recordTimeStamp } from "./record-time-stamp";

let db: Db;
let close: () => Promise<void>;
let dir: string;
let caller: { organizationId: string; userId: string };
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-tsa-records-"));
  for (const name of ["main", "closed"]) fs.mkdirSync(path.join(dir, name));
  ({ db, close } = await openDatabase({ dataDir: path.join(dir, "main") }));
  await bootstrapPlatform({ domain: "records.test", adminEmail: "a@records.test", adminPassword: "Records-Admin-Pass-1" }, db);
  const [owner] = await db.select().from(users).limit(1);
  caller = { organizationId: owner.organizationId, userId: owner.id };
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const findRow = (txToken: string) =>
  db.select({ id: stampTransactions.id }).from(stampTransactions).where(and(eq(stampTransactions.organizationId, caller.organizationId), eq(stampTransactions.txToken, txToken)));

describe("recordTimeStamp (group commit on PGlite)", () => {
  it("concurrent time-stamps are each committed before their call returns, one row per tx_token", async () => {
    const tokens = Array.from({ length: 40 }, generateTxToken);
    const seenAtReturn = await Promise.all(
      tokens.map(async (txToken) => {
        await recordTimeStamp({ ...caller, txToken }, db);
        return (await findRow(txToken)).length;
      }),
    );
    expect(seenAtReturn).toEqual(tokens.map(() => 1));
    const rows = await db.select().from(stampTransactions).where(eq(stampTransactions.operation, "signTimeStamp"));
    for (const txToken of tokens) expect(rows.filter((row) => row.txToken === txToken)).toHaveLength(1);
    expect(rows.every((row) => row.status === "done" && row.completedAt !== null && row.userId === caller.userId)).toBe(true);
  });

  it("a reused tx_token in a batch fails that call alone with the unique violation; the others are recorded", async () => {
    const reused = generateTxToken();
    await recordTimeStamp({ ...caller, txToken: reused }, db);
    const tokens = Array.from({ length: 12 }, (_, i) => (i === 6 ? reused : generateTxToken()));
    const results = await Promise.allSettled(tokens.map((txToken) => recordTimeStamp({ ...caller, txToken }, db)));
    expect(results.map((r) => r.status)).toEqual(tokens.map((_, i) => (i === 6 ? "rejected" : "fulfilled")));
    expect(isUniqueViolation((results[6] as PromiseRejectedResult).reason, "stamp_transactions_org_tx_token_key")).toBe(true);
    for (const txToken of tokens) expect(await findRow(txToken)).toHaveLength(1);
  });

  it("a closed database fails every call of the batch; none resolves as if recorded", async () => {
    const other = await openDatabase({ dataDir: path.join(dir, "closed") });
    await bootstrapPlatform({ domain: "closed.test", adminEmail: "a@closed.test", adminPassword: "Closed-Admin-Pass-1" }, other.db);
    const [owner] = await other.db.select().from(users).limit(1);
    await recordTimeStamp({ organizationId: owner.organizationId, userId: owner.id, txToken: generateTxToken() }, other.db);
    await other.close();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => recordTimeStamp({ organizationId: owner.organizationId, userId: owner.id, txToken: generateTxToken() }, other.db)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill("rejected"));
  });
});
