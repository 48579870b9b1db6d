// `npx tsx bench/on-postgres.ts bench/pg-blob-write.ts`: the ~50 MB benchmark input written to the
// PostgreSQL blob store as a bytea parameter (hex text, postgres.js) and by binary COPY, interleaved,
// with wall time and this process's CPU per write; then read back once (reads: bench/pg-blob-read.ts). Figures only.
import fs from "node:fs";
import { openDatabase } from "@/db/client";
import { createPgBlobStore } from "@/lib/blob-store/pg-blob-store";
import { ensureLargeInput } from "./large-input";

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.TEST_PG_ADMIN_URL!, dataDir: "unused" });
  const bytes = new Uint8Array(fs.readFileSync(ensureLargeInput()));
  const stores = { "bytea parameter (hex)": createPgBlobStore({ db: database.db }), "binary COPY": createPgBlobStore(database) };
  const time = async (label: string, work: () => Promise<unknown>) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await work();
    const cpu = process.cpuUsage(cpu0);
    console.log(`${label.padEnd(28)} wall ${(performance.now() - t0).toFixed(0).padStart(5)} ms, this process's CPU ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(4)} ms`);
  };
  console.log(`${(bytes.length / 1024 / 1024).toFixed(1)} MiB per write`);
  for (let round = 0; round < 3; round++) {
    for (const [label, store] of Object.entries(stores)) await time(`put, ${label}`, () => store.put(`bench/${round}-${label.length}.pdf`, bytes, "application/pdf"));
  }
  await time("get (base64 slices)", () => stores["binary COPY"].get("bench/0-11.pdf"));
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
