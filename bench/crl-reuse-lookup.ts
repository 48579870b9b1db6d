// `npx tsx bench/crl-reuse-lookup.ts [--certificates 1000,20000,100000]`: how the CRL reuse check of
// every long-term signature (currentPlatformCrls: may the stored CRLs be handed out again?) grows
// with the certificates the issuing CA has issued. Each process signature issues one, so a year of
// use means hundreds of thousands under one issuer. Prints wall and CPU per call at each count, and
// PostgreSQL's plan of the statement, on PGlite in this process (on PostgreSQL: `npx tsx
// bench/on-postgres.ts bench/crl-reuse-lookup.ts`); asserts nothing about speed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { createTestDatabase } from "../e2e/fixtures/postgres";
import { loadConfig } from "@/lib/config/load-config";
import { loadPlatformPki } from "@/lib/certificates/load-platform-pki";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { currentPlatformCrls } from "@/lib/certificates/publish-crl";
import { readCertificate } from "@/lib/pki/check-pki-signatures";

const flag = process.argv.indexOf("--certificates");
const COUNTS = (flag > 0 ? process.argv[flag + 1] : "1000,20000,100000").split(",").map(Number);
const CALLS = 200;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-crl-bench-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const databaseUrl = process.env.TEST_DATABASE === "postgres" ? await createTestDatabase() : undefined;
  const { db, close } = await openDatabase({ databaseUrl, dataDir: config.dataDir });
  console.log(`on ${databaseUrl ? "PostgreSQL" : "PGlite"}, ${CALLS} reuse checks at each count`);
  try {
    const settings = pkiSettingsOf(config);
    const pki = await loadPlatformPki({ db, settings });
    const issuerName = readCertificate(pki.issuing.certificateDer).subject;
    // the stored CRLs, issued now: every call below finds them reusable (the usual case)
    await currentPlatformCrls({}, { db, settings });
    let issued = 0;
    for (const count of COUNTS) {
      // signer certificates as the process signatures store them (the DER is a placeholder: the check never reads it)
      await db.execute(sql`insert into pki_certificates (purpose, environment, subject, serial_number_hex, issuer_name, certificate_der, not_before, not_after)
        select 'signer', ${settings.environment}, 'CN=Signer ' || g, lpad(to_hex(g), 16, '0'), ${issuerName}, '\\x3000'::bytea, now(), now() + interval '5 years'
        from generate_series(${issued + 1}::int, ${count}::int) g`);
      issued = count;
      // a few revoked long ago, so the newest revocation is older than the stored CRLs
      await db.execute(sql`update pki_certificates set revoked_at = now() - interval '1 day' where issuer_name = ${issuerName} and serial_number_hex in (lpad(to_hex(1), 16, '0'), lpad(to_hex(2), 16, '0'))`);
      await db.execute(sql`analyze pki_certificates`);
      for (let i = 0; i < 20; i++) await currentPlatformCrls({}, { db, settings });
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await currentPlatformCrls({}, { db, settings });
      const used = process.cpuUsage(cpu);
      const wall = (performance.now() - started) / CALLS;
      console.log(`${String(count).padStart(7)} certificates under the issuing CA: ${wall.toFixed(2)} ms wall, ${((used.user + used.system) / 1000 / CALLS).toFixed(2)} ms CPU per reuse check`);
    }
    const plan = await db.execute(sql`explain (analyze, costs off, timing off, summary off) select max(revoked_at) from pki_certificates where issuer_name = ${issuerName} and revoked_at is not null`);
    const rows = Array.isArray(plan) ? plan : (plan as unknown as { rows: Record<string, string>[] }).rows;
    console.log("plan of the newest-revocation lookup:");
    for (const row of rows as Record<string, string>[]) console.log("  " + Object.values(row)[0]);
  } finally {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
