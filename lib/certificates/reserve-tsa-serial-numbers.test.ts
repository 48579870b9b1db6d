import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { findPostgresBin, startPostgresCluster } from "@/e2e/fixtures/postgres";
import { nextTsaSerialNumber, serialBlock, TSA_SERIAL_BLOCK_SIZE } from "./reserve-tsa-serial-numbers";
import { executedRows } from "@/db/executed-rows";

let db: Db;
let close: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-tsa-serials-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sequenceLastValue = async () => {
  const result = await db.execute(sql`select last_value::text as last from tsa_serial_seq`);
  const rows = executedRows<{ last: string }>(result);
  return BigInt(rows[0].last);
};

describe("TSA serial numbers reserved in blocks", () => {
  it("never hands out a serial twice: parallel callers, two processes sharing the database, and a restart", async () => {
    // two allocators stand for two processes on one database; a third one, started later, for a restart
    const first = serialBlock({ size: 16 }, db);
    const second = serialBlock({ size: 16 }, db);
    const batch = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? first : second).next()));
    const restarted = serialBlock({ size: 16 }, db);
    const afterRestart = await Promise.all(Array.from({ length: 40 }, () => restarted.next()));
    const singles = await Promise.all(Array.from({ length: 10 }, () => db.transaction((tx) => nextTsaSerialNumber(tx))));
    const all = [...batch, ...afterRestart, ...singles];
    expect(new Set(all.map(String)).size).toBe(all.length);
    expect(all.every((serial) => serial > 0n)).toBe(true);
    // a restart starts past everything reserved before it, even serials reserved but never used
    const maxBeforeRestart = batch.reduce((a, b) => (a > b ? a : b));
    expect(afterRestart.every((serial) => serial > maxBeforeRestart)).toBe(true);
  });

  it("one statement reserves a whole block, and each process's serials increase", async () => {
    const before = await sequenceLastValue();
    const serials: bigint[] = [];
    for (let i = 0; i < TSA_SERIAL_BLOCK_SIZE; i++) serials.push(await nextTsaSerialNumber(db));
    // the shared per-database block: one reservation of TSA_SERIAL_BLOCK_SIZE values, used in order
    expect(await sequenceLastValue()).toBe(before + BigInt(TSA_SERIAL_BLOCK_SIZE));
    expect(serials.every((serial, i) => i === 0 || serial > serials[i - 1])).toBe(true);
    expect(serials[0]).toBeGreaterThan(before);
    // the next call needs a new block
    const next = await nextTsaSerialNumber(db);
    expect(next).toBeGreaterThan(serials.at(-1)!);
    expect(await sequenceLastValue()).toBe(before + 2n * BigInt(TSA_SERIAL_BLOCK_SIZE));
  });
});

describe.skipIf(!findPostgresBin("initdb"))("TSA serial numbers on PostgreSQL", () => {
  it("two servers sharing one database (two connection pools) never hand out the same serial, before or after a restart", async () => {
    const cluster = await startPostgresCluster();
    try {
      const first = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: dir });
      const second = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: dir });
      try {
        const serials = await Promise.all(Array.from({ length: 600 }, (_, i) => nextTsaSerialNumber(i % 2 ? first.db : second.db)));
        const restarted = await openDatabase({ databaseUrl: cluster.adminUrl, dataDir: dir });
        try {
          serials.push(...(await Promise.all(Array.from({ length: 300 }, () => nextTsaSerialNumber(restarted.db)))));
        } finally {
          await restarted.close();
        }
        expect(new Set(serials.map(String)).size).toBe(serials.length);
      } finally {
        await first.close();
        await second.close();
      }
    } finally {
      cluster.stop();
    }
  }, 120_000);
});
