import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { parseByteaHex, pgliteByteaCodec, serializeByteaHex } from "./pglite-bytea";

const backing = crypto.randomBytes(300_000);
const values: [string, Uint8Array][] = [
  ["empty", new Uint8Array(0)],
  ["every byte value", Uint8Array.from({ length: 256 }, (_, i) => i)],
  ["100 KB of random bytes", new Uint8Array(backing.subarray(0, 100_000))],
  // a view into a larger buffer (Node's pool, a subarray): only the view's bytes are the value
  ["a view at an offset", backing.subarray(123_457, 123_457 + 4_099)],
];

let ours: PGlite;
let stock: PGlite;
beforeAll(async () => {
  [ours, stock] = [new PGlite(pgliteByteaCodec), new PGlite()];
  for (const db of [ours, stock]) await db.exec("create table t (id int primary key, a bytea)");
});
afterAll(async () => {
  await Promise.all([ours?.close(), stock?.close()]);
});

describe("PGlite bytea through Node's hex codec", () => {
  it.each(values)("%s: stored as PGlite's own serializer stores it, read back as its own parser reads it", async (_name, value) => {
    const id = values.findIndex(([, v]) => v === value);
    for (const db of [ours, stock]) await db.query("insert into t (id, a) values ($1, $2)", [id, value]);
    // the same bytes in both databases, as PostgreSQL itself prints them
    const stored = await Promise.all([ours, stock].map((db) => db.query<{ hex: string }>("select encode(a, 'hex') as hex from t where id = $1", [id])));
    expect(stored[0].rows[0].hex).toBe(Buffer.from(value).toString("hex"));
    expect(stored[1].rows[0].hex).toBe(stored[0].rows[0].hex);
    const [read, readStock] = await Promise.all([ours, stock].map((db) => db.query<{ a: Uint8Array }>("select a from t where id = $1", [id])));
    expect(read.rows[0].a).toBeInstanceOf(Uint8Array);
    expect(read.rows[0].a).toEqual(readStock.rows[0].a);
    expect(Buffer.from(read.rows[0].a).equals(Buffer.from(value))).toBe(true);
    // bytes that own their memory, as PGlite's own are: a worker may be handed the buffer
    expect(read.rows[0].a.byteOffset).toBe(0);
    expect(read.rows[0].a.buffer.byteLength).toBe(value.length);
  });

  it("refuses what is not bytea's hex output, and what is not bytes", () => {
    expect(() => parseByteaHex("\\x0g")).toThrow(/not a hex digit/);
    expect(() => parseByteaHex("\\x0a1")).toThrow(/hex output format/);
    expect(() => parseByteaHex("\\000\\001")).toThrow(/hex output format/);
    expect(parseByteaHex("\\x")).toEqual(new Uint8Array(0));
    expect(() => serializeByteaHex("0a1b")).toThrow(/Invalid input for bytea/);
  });

  it("the app's embedded database uses it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-pglite-bytea-"));
    const database = await openDatabase({ dataDir: dir });
    try {
      const value = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
      // on the embedded database drizzle's execute answers with PGlite's own result
      const result = (await database.db.execute(sql`select ${value}::bytea as a, encode(${value}::bytea, 'hex') as hex`)) as unknown as { rows: { a: Uint8Array; hex: string }[] };
      const [row] = result.rows;
      expect(row.hex).toBe(Buffer.from(value).toString("hex"));
      expect(Buffer.from(row.a).equals(Buffer.from(value))).toBe(true);
      expect(row.a.buffer.byteLength).toBe(256);
      // both codecs give these same answers: what shows it is ours is the client's table itself
      const client = (database.db as unknown as { $client: PGlite }).$client;
      expect(client.parsers[17]).toBe(parseByteaHex);
      expect(client.serializers[17]).toBe(serializeByteaHex);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
