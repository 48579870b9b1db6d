// `npx tsx bench/pglite-bytea.ts`: PGlite's own bytea conversions against db/pglite-bytea.ts (Node's hex
// codec), on in-memory databases: a row of three certificate-sized values read, 4 KB and 1 MB written,
// 1 MB read. Prints milliseconds per statement (each the median of five rounds).
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pgliteByteaCodec } from "@/db/pglite-bytea";

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 255);

async function perStatement(db: PGlite, count: number, statement: () => Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < count; i++) await statement();
    rounds.push((performance.now() - started) / count);
  }
  return rounds.sort((a, b) => a - b)[2];
}

async function measure(name: string, options: PGliteOptions) {
  const db = new PGlite(options);
  await db.exec("create table certs (id int primary key, certificate bytea, chain bytea, crl bytea); create table blobs (id serial primary key, body bytea)");
  await db.query("insert into certs values (1, $1, $2, $3)", [bytes(1_500), bytes(3_000), bytes(1_200)]);
  const small = bytes(4_096);
  const large = bytes(1024 * 1024);
  const [large1] = (await db.query<{ id: number }>("insert into blobs (body) values ($1) returning id", [large])).rows;
  const figures = {
    "read 3 values (5.7 KB)": await perStatement(db, 200, () => db.query("select certificate, chain, crl from certs where id = 1")),
    "write 4 KB": await perStatement(db, 200, () => db.query("insert into blobs (body) values ($1)", [small])),
    "write 1 MB": await perStatement(db, 3, () => db.query("insert into blobs (body) values ($1)", [large])),
    "read 1 MB": await perStatement(db, 3, () => db.query("select body from blobs where id = $1", [large1.id])),
  };
  await db.close();
  console.log(`${name.padEnd(28)} ${Object.entries(figures).map(([what, ms]) => `${what} ${ms.toFixed(2)} ms`).join("   ")}`);
}

async function main() {
  await measure("PGlite's own conversions", {});
  await measure("Node's hex codec (ours)", pgliteByteaCodec);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
