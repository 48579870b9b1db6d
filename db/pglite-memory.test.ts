import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "@/db/client";

// The embedded database's buffer pool sits in a WASM heap that never shrinks: it is opened with
// 32 MB of shared buffers instead of PostgreSQL's 128 MB (docs/architecture.md, warm memory).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-pglite-memory-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("the embedded database runs with 32 MB of shared buffers and still answers", async () => {
  const database = await openDatabase({ dataDir: dir });
  try {
    const [{ setting }] = await database.db.select({ setting: sql<string>`current_setting('shared_buffers')` }).from(sql`(select 1) as one`);
    expect(setting).toBe("32MB");
  } finally {
    await database.close();
  }
}, 120_000);
