import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import * as pkijs from "pkijs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { organizations, pkiCertificates, stampTransactions, users } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { importAgentCertificate } from "@/lib/certificates/import-agent-certificate";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { splitDer } from "@/lib/certificates/store-certificate";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { readX509Certificate } from "@/lib/pki/x509-provider";
import type { Services } from "@/lib/runtime/services";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { locateSignature } from "@/lib/verification/testing/forge-pdf";
import { readDssMaterial } from "@/lib/verification/read-dss-material";
import { dssCrlTimings, itextCheckAt, pdfsigAt, validatePdfAt } from "./testing/long-term-checks";
import { startOutsideCa, type OutsideCa } from "./testing/outside-ca";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")));
const PORTRAIT = new Uint8Array(fs.readFileSync(fixturePath("images/portrait-413x531.jpg")));

let services: Services;
let dir: string;
let outsideCa: OutsideCa;
let caPemFile: string;
let rootDer: Uint8Array;
let storedChain: Uint8Array[];
let withRoot: { pdf: Uint8Array; level: string | null; unavailable: string[]; file: string };
let withoutRoot: { pdf: Uint8Array; level: string | null; unavailable: string[] };

/**
 * An outside two-level CA (root -> agent certificate, the root's CRL served over HTTP) whose root the
 * platform does NOT know (no TRUST_ANCHORS_FILE): the only copy of the root is the one in the
 * PKCS#12. The import must keep it so the CRL can be checked and put in the DSS.
 */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-outside-root-"));
  outsideCa = await startOutsideCa(path.join(dir, "acme"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  expect(config.trustAnchorsDer).toEqual([]);
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const settings = pkiSettingsOf(config);
  const { organization, owner } = await createOrganization({ domain: "outside.test", ownerEmail: "o@outside.test", ownerPassword: "Owner-Password-1" }, services.db);
  // the outside CA's CRL server is on 127.0.0.1: allowed as for this organization's callbacks
  await services.db.update(organizations).set({ allowPrivateCallbacks: true }).where(eq(organizations.id, organization.id));
  const ca = await getCaCertificates({ db: services.db, settings });
  caPemFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caPemFile, ca.pem + fs.readFileSync(outsideCa.rootPemFile, "utf8"));
  rootDer = new Uint8Array(execFileSync("openssl", ["x509", "-in", outsideCa.rootPemFile, "-outform", "DER"]));

  const [user] = await services.db.select().from(users).where(eq(users.id, owner.id));
  const caller = { userId: user.id, email: user.email, role: user.role, organizationId: organization.id, organizationDomain: "outside.test", organizationTimeZone: "America/Lima", isPlatformAdmin: false };
  const stamp = async () => {
    const fields = ZSignPdfFields.parse({ names: "Rosa", last_names: "Huamán Soto", person_id: "45493496", page: 1, sign_type: "agente" });
    const result = await requestStampSignature({ caller, fields, pdf: { field: "pdf_file", filename: "c.pdf", contentType: "application/pdf", bytes: new Uint8Array(CONTRACT) }, image: { field: "image", filename: "p.jpg", contentType: "image/jpeg", bytes: PORTRAIT } }, services);
    if (result.mode !== "sync") throw new Error("expected a synchronous signature");
    const [row] = await services.db.select().from(stampTransactions).where(eq(stampTransactions.txToken, result.txToken));
    expect(row.padesLevel).toBe(result.padesLevel);
    return { pdf: result.pdf, level: result.padesLevel, unavailable: result.revocationUnavailable };
  };

  await importAgentCertificate({ organizationId: organization.id, p12: outsideCa.agentP12, password: outsideCa.p12Password }, { db: services.db, settings, pools: services.pools });
  const [agentRow] = await services.db.select().from(pkiCertificates)
    .where(and(eq(pkiCertificates.organizationId, organization.id), eq(pkiCertificates.purpose, "agent")))
    .orderBy(desc(pkiCertificates.createdAt)).limit(1);
  storedChain = splitDer(agentRow.chainDer ? new Uint8Array(agentRow.chainDer) : null);
  const made = await stamp();
  withRoot = { ...made, file: path.join(dir, "with-root.pdf") };
  fs.writeFileSync(withRoot.file, made.pdf);

  // the counter-case: another agent certificate of the same root, in a PKCS#12 that lacks the root
  const acme = path.join(dir, "acme");
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: acme, stdio: "pipe" });
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "agent2.key", "-out", "agent2.csr", "-subj", "/O=Acme SAC/CN=Acme Agente");
  openssl("x509", "-req", "-in", "agent2.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "agent2.pem", "-days", "1825", "-sha256", "-extfile", "agent.ext");
  openssl("pkcs12", "-export", "-inkey", "agent2.key", "-in", "agent2.pem", "-out", "agent-alone.p12", "-passout", "pass:p12-secret");
  await importAgentCertificate({ organizationId: organization.id, p12: new Uint8Array(fs.readFileSync(path.join(acme, "agent-alone.p12"))), password: "p12-secret" }, { db: services.db, settings, pools: services.pools });
  withoutRoot = await stamp();
}, 300_000);

afterAll(async () => {
  await services?.close();
  await outsideCa?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sameDer = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("an agent certificate issued directly by an outside root", () => {
  it("keeps the root in the stored chain", () => {
    expect(storedChain.some((der) => sameDer(der, rootDer))).toBe(true);
  });

  it("reaches B-LT: the root goes into the DSS with the CRL it signed, and stays out of the CMS", async () => {
    expect(withRoot.unavailable).toEqual([]);
    expect(withRoot.level).toBe("B-LT");
    const dss = readDssMaterial(openLazyPdf(withRoot.pdf));
    expect(dss.certificatesDer.some((der) => sameDer(der, rootDer))).toBe(true);
    const acmeCrls = dss.crlsDer.filter((der) => /Acme Outside Root/.test(execFileSync("openssl", ["crl", "-inform", "DER", "-noout", "-issuer"], { input: der }).toString()));
    expect(acmeCrls).toHaveLength(1);
    const at = locateSignature(withRoot.pdf, 0);
    const hex = Buffer.from(withRoot.pdf.subarray(at.contentsStart + 1, at.contentsEnd - 1)).toString("latin1");
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(Buffer.from(hex, "hex")).content });
    const subjects = (signed.certificates ?? []).map((c) => readX509Certificate(new Uint8Array((c as pkijs.Certificate).toSchema().toBER())).subject);
    expect(subjects).toEqual(["O=Acme SAC, CN=Acme Agente"]);
  });

  it("openssl verifies the outside CRL in the DSS and finds it issued after the agent certificate", async () => {
    const timings = await dssCrlTimings(withRoot.pdf, dir);
    const acme = timings.find((t) => /Acme Outside Root/.test(t.issuer))!;
    expect(acme.verified).toBe(true);
    expect(acme.covers.map((c) => c.subject)).toEqual([expect.stringMatching(/Acme Agente/)]);
    expect(acme.thisUpdate.getTime()).toBeGreaterThanOrEqual(acme.covers[0].notBefore.getTime());
  });

  it("validate-pdf, pdfsig and iText 5 (revocation from the DSS, offline) accept it", async () => {
    expect((await validatePdfAt(withRoot.file, caPemFile)).output).toMatch(/validate-pdf: PASS \(1 signature\)/);
    const pdfsig = await pdfsigAt(withRoot.file, caPemFile, dir);
    expect([pdfsig.signatures, pdfsig.certificates]).toEqual([["Signature is Valid."], ["Certificate is Trusted."]]);
    expect((await itextCheckAt(withRoot.file, [caPemFile])).output).toMatch(/itext: PASS/);
  }, 300_000);

  it("stays at B-T, and says why, when the PKCS#12 really lacks the root (and the platform does not know it)", async () => {
    expect(withoutRoot.level).toBe("B-T");
    expect(withoutRoot.unavailable.join("\n")).toMatch(/Acme Agente: issuer certificate unknown/);
    const file = path.join(dir, "without-root.pdf");
    fs.writeFileSync(file, withoutRoot.pdf);
    expect((await itextCheckAt(file, [caPemFile])).output).toMatch(/itext: FAIL/);
  }, 300_000);
});
