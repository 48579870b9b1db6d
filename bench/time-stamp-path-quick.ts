// `npx tsx bench/time-stamp-path-quick.ts`: main-thread CPU of the pieces of a signTimeStamp, in
// this process on a scratch PGlite: stamp-token auth as it was (two SELECTs) and as it is (one
// prepared joined SELECT), a serial per token (nextval) against serials reserved in blocks, signing
// a token, and the re-parse of the reply that signTimeStamp no longer does. Prints figures only.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { stampApiTokens } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto/derive-key";
import { bootstrapPlatform } from "@/lib/organizations/bootstrap-platform";
import { issueStampToken } from "@/lib/auth/issue-stamp-token";
import { verifyStampToken } from "@/lib/auth/verify-stamp-token";
import { loadStaffIdentity } from "@/lib/auth/authenticate-staff";
import { nextTsaSerialNumber } from "@/lib/certificates/reserve-tsa-serial-numbers";

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-auth-quick-"));
  const { db, close } = await openDatabase({ dataDir: dir });
  await bootstrapPlatform({ domain: "q.test", adminEmail: "a@q.test", adminPassword: "Quick-Admin-Pass-1" }, db);
  const { token } = await issueStampToken({ email: "a@q.test", password: "Quick-Admin-Pass-1", version: "v2" }, { db, settings: { secretKey: new Uint8Array(32), ttlDays: 1 } });
  const before = async () => {
    const [row] = await db.select({ userId: stampApiTokens.userId, apiVersion: stampApiTokens.apiVersion }).from(stampApiTokens)
      .where(and(eq(stampApiTokens.tokenHash, sha256Hex(token)), gt(stampApiTokens.expiresAt, new Date()))).limit(1);
    return loadStaffIdentity(row.userId, db);
  };
  const after = () => verifyStampToken(token, db);
  const serialBefore = () => db.execute(sql`select nextval('tsa_serial_seq')::text as serial`);
  const serialAfter = () => nextTsaSerialNumber(db);
  const measure = async (name: string, f: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await f();
    const n = 2000;
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await f();
    const c = process.cpuUsage(c0);
    console.log(`${name.padEnd(40)} ${((c.user + c.system) / 1000 / n).toFixed(3)} ms CPU per call`);
  };
  const { answerTimeStampRequest } = await import("@/lib/certificates/time-stamp-authority");
  const { readTimeStampResponse } = await import("@/lib/tsa/read-time-stamp-response");
  const { opensslTsQuery } = await import("../e2e/fixtures/independent-validators");
  const tsq = opensslTsQuery(new Uint8Array(Buffer.from("hello")));
  const settings = { environment: "quality" as const, secretKey: new Uint8Array(32).fill(1), publicUrl: "http://127.0.0.1" };
  const { reply } = await answerTimeStampRequest(tsq, { db, settings });
  await measure("answerTimeStampRequest (sign a token)", () => answerTimeStampRequest(tsq, { db, settings }));
  await measure("re-parse of the reply (no longer done)", async () => readTimeStampResponse(reply));
  for (let round = 0; round < 2; round++) {
    await measure("auth before (2 SELECTs)", before);
    await measure("auth after (1 prepared joined SELECT)", after);
    await measure("serial before (nextval per token)", serialBefore);
    await measure("serial after (blocks of 256)", serialAfter);
  }
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
