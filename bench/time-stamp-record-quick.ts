// `npx tsx bench/time-stamp-record-quick.ts` (PostgreSQL: `npx tsx bench/on-postgres.ts
// bench/time-stamp-record-quick.ts`): the database part of a signTimeStamp in this process, auth
// (one prepared SELECT) then recording the tx_token, with one INSERT per request as before and
// with the group commit (db/group-commit.ts) now used, at c=1 and c=8, rounds interleaved so a
// busy machine weighs on both alike. Prints CPU of this process per request (PGlite runs here;
// PostgreSQL's own CPU is not counted) and throughput. Asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { openDatabase } from "@/db/client";
import { stampTransactions } from "@/db/schema";
import { createTestDatabase } from "../e2e/fixtures/postgres";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { issueStampToken } from "@/lib/auth/issue-stamp-token";
import { verifyStampToken } from "@/lib/auth/verify-stamp-token";
import { generateTxToken } from "@/lib/stamp-signing/generate-tx-token";
import { recordTimeStamp } from "@/lib/stamp-signing/record-time-stamp";

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-record-quick-"));
  const databaseUrl = process.env.TEST_DATABASE === "postgres" ? await createTestDatabase() : undefined;
  const { db, close } = await openDatabase({ dataDir: dir, databaseUrl });
  await bootstrapPlatform({ domain: "q.test", adminEmail: "a@q.test", adminPassword: "Quick-Admin-Pass-1" }, db);
  const { token } = await issueStampToken({ email: "a@q.test", password: "Quick-Admin-Pass-1", version: "v2" }, { db, settings: { secretKey: new Uint8Array(32), ttlDays: 1 } });
  const insertPerRequest = async () => {
    const caller = await verifyStampToken(token, db);
    await db.insert(stampTransactions).values({ organizationId: caller.organizationId, userId: caller.userId, txToken: generateTxToken(), docId: crypto.randomUUID(), operation: "signTimeStamp", status: "done", completedAt: new Date() });
  };
  const groupCommitted = async () => {
    const caller = await verifyStampToken(token, db);
    await recordTimeStamp({ organizationId: caller.organizationId, userId: caller.userId, txToken: generateTxToken() }, db);
  };
  const run = async (name: string, work: () => Promise<void>, concurrency: number) => {
    const total = 1600;
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < total) await work(); }));
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    console.log(`${name.padEnd(36)} c=${concurrency}  ${((cpu.user + cpu.system) / 1000 / total).toFixed(3)} ms CPU/req  ${(total / seconds).toFixed(0).padStart(5)} req/s`);
  };
  console.log(`${databaseUrl ? "PostgreSQL" : "PGlite"}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  await run("warm-up", groupCommitted, 8);
  for (let round = 0; round < 3; round++) {
    for (const concurrency of [1, 8]) {
      await run("auth + one INSERT per request", insertPerRequest, concurrency);
      await run("auth + group commit", groupCommitted, concurrency);
    }
  }
  console.log(`load average after ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
