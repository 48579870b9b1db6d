// `npx tsx bench/on-postgres.ts bench/pg-blob-read.ts`: a signed 1-page PDF's size (130 KB) and the
// ~50 MB benchmark input read back from the PostgreSQL blob store, interleaved: the bytea column as
// postgres.js reads it (hex text, one message) and the store's reads in base64 slices. Prints wall
// time, this process's CPU per read and the longest event-loop block while reading. Figures only.
import crypto from "node:crypto";
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openDatabase } from "@/db/client";
import { createPgBlobStore } from "@/lib/blob-store/pg-blob-store";
import { ensureLargeInput } from "./large-input";

async function main() {
  const database = await openDatabase({ databaseUrl: process.env.TEST_PG_ADMIN_URL!, dataDir: "unused" });
  const stores = { "bytea column (hex)": createPgBlobStore({ db: database.db }), "base64 slices": createPgBlobStore(database) };
  const inputs = [new Uint8Array(crypto.randomBytes(130_000)), new Uint8Array(fs.readFileSync(ensureLargeInput()))];
  for (const bytes of inputs) {
    const key = `bench/read-${bytes.length}.pdf`;
    await stores["base64 slices"].put(key, bytes, "application/pdf");
    const reads = bytes.length > 1e6 ? 5 : 200;
    console.log(`${(bytes.length / 1024).toFixed(0)} KiB, ${reads} reads per line`);
    for (let round = 0; round < 2; round++) {
      for (const [label, store] of Object.entries(stores)) {
        const walls: number[] = [];
        const delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        const cpu0 = process.cpuUsage();
        let first: Uint8Array | null = null;
        for (let i = 0; i < reads; i++) {
          const t0 = performance.now();
          const read = await store.get(key);
          walls.push(performance.now() - t0);
          first ??= read;
        }
        delay.disable();
        const cpu = process.cpuUsage(cpu0);
        // compared outside the measured window: a 50 MB comparison is itself a block of the event loop
        if (!Buffer.from(first!).equals(Buffer.from(bytes))) throw new Error(`${label}: the bytes read differ`);
        walls.sort((a, b) => a - b);
        console.log(
          `  ${label.padEnd(20)} wall p50 ${walls[reads >> 1].toFixed(1).padStart(6)} ms, min ${walls[0].toFixed(1).padStart(6)}; ` +
            `this process's CPU ${((cpu.user + cpu.system) / 1000 / reads).toFixed(1).padStart(5)} ms/read; longest event-loop block ${(delay.max / 1e6).toFixed(0).padStart(4)} ms`,
        );
      }
    }
  }
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
