import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { executedRows } from "@/db/executed-rows";

/**
 * How many serial numbers one round trip reserves. At 500 tokens a second that is one `nextval`
 * statement every half second instead of one per token; a restart leaves at most this many unused.
 */
export const TSA_SERIAL_BLOCK_SIZE = 256;

type SerialBlock = { next: () => Promise<bigint> };

const blocks = new WeakMap<Db, SerialBlock>();

/**
 * Serial numbers come from the database sequence tsa_serial_seq, reserved in blocks: every value
 * the sequence hands out is handed out once, whatever the number of processes sharing the
 * database, and a restart never goes back (sequences do not roll back). Gaps are allowed (RFC 3161
 * asks serials to be unique, not dense). Inside a transaction one value is taken, so a short-lived
 * transaction object does not strand a block.
 */
export function nextTsaSerialNumber(db: Db): Promise<bigint> {
  if (isTransaction(db)) return reserveSerialNumbers(db, 1).then((values) => values[0]);
  let block = blocks.get(db);
  if (!block) {
    block = serialBlock({ size: TSA_SERIAL_BLOCK_SIZE }, db);
    blocks.set(db, block);
  }
  return block.next();
}

/** One process's reserved serials, refilled by one statement at a time however many callers wait. */
export function serialBlock({ size }: { size: number }, db: Db): SerialBlock {
  let reserved: bigint[] = [];
  let refilling: Promise<void> | undefined;
  const refill = () =>
    (refilling ??= reserveSerialNumbers(db, size)
      .then((values) => {
        reserved = reserved.concat(values);
      })
      .finally(() => {
        refilling = undefined;
      }));
  return {
    async next() {
      // callers woken by the same refill share it; whoever finds the block empty again waits for the next
      while (reserved.length === 0) await refill();
      return reserved.shift()!;
    },
  };
}

const isTransaction = (db: Db): boolean => db instanceof PgTransaction;

async function reserveSerialNumbers(db: Db, count: number): Promise<bigint[]> {
  const result = await db.execute(sql`select nextval('tsa_serial_seq')::text as serial from generate_series(1, ${count}::int)`);
  const rows = executedRows<{ serial: string }>(result);
  if (rows.length !== count) throw new Error(`tsa_serial_seq gave ${rows.length} values where ${count} were asked`);
  return rows.map((row) => BigInt(row.serial)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
