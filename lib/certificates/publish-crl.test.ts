import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { eq, sql } from "drizzle-orm";
import { crlIssues, pkiCertificates } from "@/db/schema";
import { storeCertificate } from "./store-certificate";
import { loadConfig } from "@/lib/config/load-config";
import { buildCrl } from "@/lib/pki/build-crl";
import { crlBaseUrl, loadPlatformPki, type PlatformPki } from "./load-platform-pki";
import { pkiSettingsOf } from "./pki-settings";
import { currentPlatformCrls } from "./publish-crl";
import { validationData } from "./finish-long-term-validation";
import { issueSignerCertificate } from "@/lib/pki/issue-certificate";
import { readX509Certificate, x509 } from "@/lib/pki/x509-provider";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { settlePlans } from "@/db/testing/settle-plans";
import { executedRows } from "@/db/executed-rows";

let dir: string;
let close: () => Promise<void>;
let db: Awaited<ReturnType<typeof openDatabase>>["db"];
let settings: ReturnType<typeof pkiSettingsOf>;
let pki: PlatformPki;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-crl-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  ({ db, close } = database);
  settings = pkiSettingsOf(config);
  pki = await loadPlatformPki({ db, settings });
}, 120_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Stores CRLs issued `ageMs` ago, still well inside their reuse window: a server that has been up a while. */
async function storeCrlsIssuedAgo(ageMs: number) {
  const thisUpdate = new Date(Date.now() - ageMs);
  const nextUpdate = new Date(thisUpdate.getTime() + 24 * 3600 * 1000);
  for (const [rowId, issuer] of [[pki.rootRowId, pki.root], [pki.issuingRowId, pki.issuing]] as const) {
    const crlDer = await buildCrl(issuer, { revoked: [], crlNumber: 7n, thisUpdate, nextUpdate });
    await db.insert(crlIssues).values({ issuerCertificateId: rowId, crlNumber: 7n, crlDer, nextUpdate }).onConflictDoUpdate({ target: crlIssues.issuerCertificateId, set: { crlDer, nextUpdate } });
  }
  return thisUpdate;
}

const thisUpdateOf = (der: Uint8Array) => new x509.X509Crl(new Uint8Array(der)).thisUpdate;
const newSigner = () =>
  issueSignerCertificate(pki.issuing, { givenNames: "Ana", lastNames: "Rojas", nationality: "PER", idType: "DNI", idNumber: "12345678", validityMinutes: 60, crlBaseUrl: crlBaseUrl(settings.publicUrl) });

describe("the timing rule: a CRL older than the notBefore of a certificate it covers is never embedded", () => {
  it("issues new CRLs for a certificate made after the stored ones, instead of reusing them", async () => {
    await storeCrlsIssuedAgo(10 * 60 * 1000);
    const signer = await newSigner();
    const notBefore = readX509Certificate(signer.certificateDer).notBefore;
    const data = await validationData({ signerCertificates: [signer.certificateDer] }, { db, settings, pools: testWorkerPools() });
    expect(data.crls).toHaveLength(2);
    for (const crl of data.crls) expect(thisUpdateOf(crl).getTime()).toBeGreaterThanOrEqual(notBefore.getTime());
  });

  it("reuses the stored CRLs when they are younger than every certificate they cover", async () => {
    const stored = await storeCrlsIssuedAgo(5_000);
    const crls = await currentPlatformCrls({ coveringSince: new Date(stored.getTime() - 60_000) }, { db, settings });
    expect(crls.map((crl) => thisUpdateOf(crl).getTime())).toEqual([Math.floor(stored.getTime() / 1000) * 1000, Math.floor(stored.getTime() / 1000) * 1000]);
  });

  it("never hands out a CRL issued before the certificate, whatever second boundary they fall on", async () => {
    for (let i = 0; i < 3; i++) {
      const stored = await storeCrlsIssuedAgo(0);
      const crls = await currentPlatformCrls({ coveringSince: new Date(stored.getTime() + 1000) }, { db, settings });
      for (const crl of crls) expect(thisUpdateOf(crl).getTime()).toBeGreaterThanOrEqual(Math.floor(stored.getTime() / 1000) * 1000 + 1000);
    }
  });
});

describe("the revocation rule: a stored CRL older than a revocation is never handed out again", () => {
  it("lists a certificate revoked after the stored CRLs were issued, and reuses the new CRL afterwards", async () => {
    await storeCrlsIssuedAgo(60_000);
    const signer = await newSigner();
    const row = await storeCertificate({ certificate: { certificateDer: signer.certificateDer }, purpose: "signer", environment: settings.environment, secretKey: settings.secretKey }, db);
    const before = await currentPlatformCrls({}, { db, settings });
    // nothing was revoked: the stored CRLs are reused as they are
    expect(before.map((crl) => thisUpdateOf(crl).getTime())).toEqual(Array(2).fill(thisUpdateOf(before[0]).getTime()));
    // revoked after the stored CRLs, and in an earlier second than now (a CRL's thisUpdate is whole seconds)
    await db.update(pkiCertificates).set({ revokedAt: new Date(Date.now() - 2_000) }).where(eq(pkiCertificates.id, row.id));
    const after = await currentPlatformCrls({}, { db, settings });
    const serial = readX509Certificate(signer.certificateDer).serialNumber.toLowerCase();
    const listed = (der: Uint8Array) => new x509.X509Crl(new Uint8Array(der)).entries.map((entry) => entry.serialNumber.toLowerCase());
    // the issuing CA's CRL is issued anew and lists it; the root's has nothing new to say and is reused
    expect(listed(after[1])).toContain(serial);
    expect(after[0]).toEqual(before[0]);
    expect(await currentPlatformCrls({}, { db, settings })).toEqual(after);
  });
});

describe("the reuse check reads the revoked certificates, not every certificate the issuer issued", () => {
  it("answers from the index of revoked rows with 20,000 signer certificates under the issuing CA", async () => {
    await storeCrlsIssuedAgo(60_000);
    const issuerName = readX509Certificate(pki.issuing.certificateDer).subject;
    // as many signer certificates as 20,000 process signatures leave (the DER is a placeholder: the check never reads it)
    await db.execute(sql`insert into pki_certificates (purpose, environment, subject, serial_number_hex, issuer_name, certificate_der, not_before, not_after)
      select 'signer', ${settings.environment}, 'CN=Signer ' || g, 'bulk' || g, ${issuerName}, '\\x3000'::bytea, now(), now() + interval '5 years'
      from generate_series(1, 20000) g`);
    await db.execute(sql`analyze pki_certificates`);
    // measured with the plan later requests get (past the first five custom plans of its prepared statement)
    await settlePlans(db, (tx) => currentPlatformCrls({}, { db: tx, settings }));
    // the backend's counts not yet flushed (pg_stat_xact_*), before and after: which scans the reuse check started and how many rows it read
    const reads = await db.transaction(async (tx) => {
      const rowsOf = (result: unknown) => executedRows<Record<string, string | number>>(result);
      const counters = async () => {
        const [table] = rowsOf(await tx.execute(sql`select seq_scan, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as tuples from pg_stat_xact_user_tables where relname = 'pki_certificates'`));
        const [index] = rowsOf(await tx.execute(sql`select pg_stat_get_xact_numscans(to_regclass('pki_certificates_revoked_idx')) as idx_scan`));
        return { seqScans: Number(table.seq_scan), tuples: Number(table.tuples), revokedIndexScans: Number(index?.idx_scan ?? 0) };
      };
      const before = await counters();
      const crls = await currentPlatformCrls({}, { db: tx, settings });
      const after = await counters();
      return { crls, seqScans: after.seqScans - before.seqScans, tuples: after.tuples - before.tuples, revokedIndexScans: after.revokedIndexScans - before.revokedIndexScans };
    });
    expect(reads.crls).toHaveLength(2);
    expect(reads.seqScans).toBe(0);
    expect(reads.revokedIndexScans).toBeGreaterThan(0);
    expect(reads.tuples).toBeLessThan(100);
  }, 60_000);
});
