import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import * as pkijs from "pkijs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { organizations, processDocuments, processes, stampTransactions, users } from "@/db/schema";
import { importAgentCertificate } from "@/lib/certificates/import-agent-certificate";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { loadPlatformPki } from "@/lib/certificates/load-platform-pki";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import type { Services } from "@/lib/runtime/services";
import { signAsProcessSigner } from "@/lib/signers/sign-as-process-signer";
import { showEveryPage } from "@/lib/signers/test-support/show-every-page";
import { verifySignerIdentity } from "@/lib/signers/verify-signer-identity";
import { confirmSignerNames } from "@/lib/signers/confirm-signer-names";
import { enrollCertificateHolder, ZEnrollCertificateHolder } from "@/lib/stamp-signing/enroll-certificate-holder";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { locateSignature } from "@/lib/verification/testing/forge-pdf";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { dssCrlTimings, itextCheckAt, pdfsigAt, validatePdfAt } from "./testing/long-term-checks";
import { startOutsideCa, type OutsideCa } from "./testing/outside-ca";
import { storeStaleCrls } from "./testing/store-stale-crls";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { FIXTURES_DIR } from "@/test/fixtures-dir";

const FIXTURES = FIXTURES_DIR;
const CONTRACT = new Uint8Array(fs.readFileSync(`${FIXTURES}/pdfs/valid/libreoffice74-contrato-a4.pdf`));
const PORTRAIT = new Uint8Array(fs.readFileSync(`${FIXTURES}/images/portrait-413x531.jpg`));
const STALE_MS = 10 * 60 * 1000;

let services: Services;
let dir: string;
let caPemFile: string;
let anchorsDer: Uint8Array[];
const outputs: { name: string; level: "B-LT" | "B-LTA"; signatures: number; bytes: Uint8Array }[] = [];
const recorded: { answered: string | null; stored: string | null; unavailable: string[]; summary: unknown }[] = [];
let processLevel: string | null = null;
let outsideCa: OutsideCa;
let offlineCa: OutsideCa;
let outsideCrlRequests = 0;
let offline: Uint8Array;
let offlineRecord: (typeof recorded)[number];

/**
 * Every output kind, made by the use cases the routes call, on a server "up for a while": the
 * stored CRLs were issued ten minutes ago and are still inside their reuse window, i.e. older than
 * every certificate issued during the test (signer and agent certificates are back-dated 60 s only).
 */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-long-term-"));
  outsideCa = await startOutsideCa(path.join(dir, "acme"));
  offlineCa = await startOutsideCa(path.join(dir, "offline"));
  offlineCa.setCrlAvailable(false);
  const outsideRoots = path.join(dir, "outside-roots.pem");
  fs.writeFileSync(outsideRoots, fs.readFileSync(outsideCa.rootPemFile, "utf8") + fs.readFileSync(offlineCa.rootPemFile, "utf8"));
  // outside roots the platform knows (TRUST_ANCHORS_FILE): they let it check the outside CRLs it fetches
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9", TRUST_ANCHORS_FILE: outsideRoots });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const settings = pkiSettingsOf(config);
  const { organization, owner } = await createOrganization({ domain: "ltv.test", ownerEmail: "o@ltv.test", ownerPassword: "Owner-Password-1" }, services.db);
  const pki = await loadPlatformPki({ db: services.db, settings });
  await storeStaleCrls(services.db, settings, STALE_MS);
  const ca = await getCaCertificates({ db: services.db, settings });
  caPemFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caPemFile, ca.pem + fs.readFileSync(outsideRoots, "utf8"));
  anchorsDer = [pki.root.certificateDer, ...config.trustAnchorsDer];
  // the outside CA's CRL server is on 127.0.0.1: allowed as for this organization's callbacks
  await services.db.update(organizations).set({ allowPrivateCallbacks: true }).where(eq(organizations.id, organization.id));

  const [user] = await services.db.select().from(users).where(eq(users.id, owner.id));
  const caller = { userId: user.id, email: user.email, role: user.role, organizationId: organization.id, organizationDomain: "ltv.test", organizationTimeZone: "America/Lima", isPlatformAdmin: false };
  const person = { names: "Rosa", last_names: "Huamán Soto", person_id: "45493496" };
  const stamp = async (fields: Record<string, unknown>, pdf: Uint8Array = CONTRACT) => {
    const result = await requestStampSignature({ caller, fields: ZSignPdfFields.parse(fields), pdf: { field: "pdf_file", filename: "c.pdf", contentType: "application/pdf", bytes: new Uint8Array(pdf) }, image: { field: "image", filename: "p.jpg", contentType: "image/jpeg", bytes: PORTRAIT } }, services);
    if (result.mode !== "sync") throw new Error("expected a synchronous signature");
    const [row] = await services.db.select().from(stampTransactions).where(eq(stampTransactions.txToken, result.txToken));
    recorded.push({ answered: result.padesLevel, stored: row.padesLevel, unavailable: result.revocationUnavailable, summary: row.summary });
    return result.pdf;
  };
  const agente = await stamp({ ...person, page: 1, sign_type: "agente" });
  outputs.push({ name: "agente, stamp on page 1", level: "B-LT", signatures: 1, bytes: agente });
  outputs.push({ name: "otp, stamp on an appended page (page 0)", level: "B-LT", signatures: 1, bytes: await stamp({ ...person, page: 0, sign_type: "otp", email: "rosa@ltv.test" }) });
  await enrollCertificateHolder({ ...ZEnrollCertificateHolder.parse({ sign_username: "rosa.huaman", sign_password: "Holder-Password-1", sign_pin: "2468", ...person, validity_days: 3 * 365 }), organizationId: organization.id, enrolledBy: { userId: null, actor: "owner@ltv.test" } }, { db: services.db, settings, pools: services.pools });
  outputs.push({ name: "digital (built-in holder), invisible", level: "B-LT", signatures: 1, bytes: await stamp({ sign_type: "digital", sign_username: "rosa.huaman", sign_password: "Holder-Password-1", sign_pin: "2468" }) });
  outputs.push({ name: "agente, third signature on a twice-signed file", level: "B-LT", signatures: 3, bytes: await stamp({ ...person, page: 1, position_y: 300 }, await stamp({ ...person, page: 1, position_y: 160 }, agente)) });

  const processCaller = { credentialId: null as unknown as string, clientname: "api@ltv.test", role: "admin" as const, organizationId: organization.id, organizationDomain: "ltv.test" };
  const created = await createProcess(
    {
      caller: processCaller,
      fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "11111111" }, { doc_id: "22222222" }], signOrder: true, urlCallback: "https://cb.example/hook", description: "Contrato" }),
      files: [{ field: "pdfFiles", filename: "contrato.pdf", contentType: "application/pdf", bytes: CONTRACT }],
    },
    { db: services.db, blobs: services.blobs, links: { secretKey: config.secretKey, publicUrl: config.publicUrl }, pools: services.pools },
  );
  const token = String(created.msg).split("/").pop()!;
  for (const [docId, given, family] of [["11111111", "Ana", "Rojas"], ["22222222", "Luis", "Quispe"]]) {
    const identity = await verifySignerIdentity({ token, docId }, services.db);
    await confirmSignerNames({ token, signerId: identity.signerId, names: { given_name: given, family_name: family } }, services.db);
    await showEveryPage({ token, signerId: identity.signerId }, services.db);
    await signAsProcessSigner({ token, signerId: identity.signerId }, services);
  }
  const [document] = await services.db.select().from(processDocuments).where(eq(processDocuments.processId, created.id));
  outputs.push({ name: "completed 2-signer process", level: "B-LTA", signatures: 3, bytes: new Uint8Array((await services.blobs.get(document.currentBlobKey))!) });
  const [processRow] = await services.db.select().from(processes).where(eq(processes.id, created.id));
  processLevel = processRow.padesLevel;

  await importAgentCertificate({ organizationId: organization.id, p12: outsideCa.agentP12, password: outsideCa.p12Password }, { db: services.db, settings, pools: services.pools });
  outputs.push({ name: "imported agent from an outside CA (CRL fetched)", level: "B-LT", signatures: 1, bytes: await stamp({ ...person, page: 1 }) });
  await stamp({});
  outsideCrlRequests = outsideCa.crlRequests();
  await importAgentCertificate({ organizationId: organization.id, p12: offlineCa.agentP12, password: offlineCa.p12Password }, { db: services.db, settings, pools: services.pools });
  offline = await stamp({});
  offlineRecord = recorded.at(-1)!;
  for (const [index, output] of outputs.entries()) fs.writeFileSync(path.join(dir, `out${index}.pdf`), output.bytes);
}, 600_000);

afterAll(async () => {
  await services?.close();
  await outsideCa?.close();
  await offlineCa?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const fileOf = (name: string) => path.join(dir, `out${outputs.findIndex((o) => o.name === name)}.pdf`);
const kinds = [
  "agente, stamp on page 1",
  "otp, stamp on an appended page (page 0)",
  "digital (built-in holder), invisible",
  "agente, third signature on a twice-signed file",
  "completed 2-signer process",
  "imported agent from an outside CA (CRL fetched)",
];

describe("long-term validity of every output kind, on a server whose stored CRLs predate the new certificates", () => {
  it.each(kinds)("%s: every DSS CRL verifies with openssl and was issued after the notBefore of each certificate it covers", async (name) => {
    const output = outputs.find((o) => o.name === name)!;
    const timings = await dssCrlTimings(output.bytes, dir);
    expect(timings.length).toBeGreaterThanOrEqual(2);
    for (const timing of timings) {
      expect(timing.verified, `${timing.crl} of ${timing.issuer}`).toBe(true);
      for (const certificate of timing.covers) expect(timing.thisUpdate.getTime(), `${timing.issuer} CRL vs ${certificate.subject}`).toBeGreaterThanOrEqual(certificate.notBefore.getTime());
    }
    // every signer certificate of the file is covered by a CRL of its issuer
    const covered = new Set(timings.flatMap((t) => t.covers.map((c) => c.subject)));
    expect(covered.size).toBeGreaterThanOrEqual(2);
  });

  it.each(kinds)("%s: reaches its promised level in our verifier (EU DSS rule: no revocation data older than the certificate)", async (name) => {
    const output = outputs.find((o) => o.name === name)!;
    const report = await verifyPdfSignatures(output.bytes, anchorsDer);
    expect(report.verdict).toBe("valid");
    expect(report.signatures).toHaveLength(output.signatures);
    const signatures = report.signatures.filter((s) => s.kind === "signature");
    // earlier signatures of the third-signature file carry their own DSS; all must hold the level
    for (const signature of signatures) expect(signature.level).toBe(output.level);
  });

  it("puts the TSA certificate in the document time-stamp token only; signature time-stamps stay without certificates", () => {
    const output = outputs.find((o) => o.name === "completed 2-signer process")!;
    const cms = [0, 1, 2].map((index) => {
      const at = locateSignature(output.bytes, index);
      const hex = Buffer.from(output.bytes.subarray(at.contentsStart + 1, at.contentsEnd - 1)).toString("latin1");
      const info = pkijs.ContentInfo.fromBER(Buffer.from(hex, "hex"));
      return new pkijs.SignedData({ schema: info.content });
    });
    const certificatesOf = (signed: pkijs.SignedData) => (signed.certificates ?? []).length;
    const signatureTokens = cms.slice(0, 2).map((signed) => {
      const attribute = signed.signerInfos[0].unsignedAttrs!.attributes.find((a) => a.type === "1.2.840.113549.1.9.16.2.14")!;
      return new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(attribute.values[0].toBER(false)).content });
    });
    expect(signatureTokens.map(certificatesOf)).toEqual([0, 0]);
    expect(certificatesOf(cms[2])).toBeGreaterThanOrEqual(1);
  });

  it.each(kinds)("%s: validate-pdf and pdfsig accept it now, a day later and a year later (faketime)", async (name) => {
    const output = outputs.find((o) => o.name === name)!;
    for (const offset of [undefined, "+1d", "+365d"]) {
      const validated = await validatePdfAt(fileOf(name), caPemFile, offset);
      expect(validated.output, `validate-pdf at ${offset ?? "now"}`).toMatch(new RegExp(`validate-pdf: PASS \\(${output.signatures} signatures?\\)`));
      const pdfsig = await pdfsigAt(fileOf(name), caPemFile, dir, offset);
      // poppler 22.12 does not verify RFC 3161 document time-stamps at all (validate-pdf reports n/a)
      const signatures = output.level === "B-LTA" ? output.signatures - 1 : output.signatures;
      const expected = [...Array(signatures).fill("Signature is Valid."), ...(output.level === "B-LTA" ? ["Signature has not yet been verified."] : [])];
      expect(pdfsig.signatures, `pdfsig at ${offset ?? "now"}`).toEqual(expected);
      expect(pdfsig.certificates.slice(0, signatures), `pdfsig at ${offset ?? "now"}`).toEqual(Array(signatures).fill("Certificate is Trusted."));
    }
  }, 600_000);

  it.each(kinds)("%s: iText 5 (third validator) verifies every signature, time-stamp, chain and DSS revocation data, now, a day later and a year later", async (name) => {
    for (const offset of [undefined, "+1d", "+365d"]) {
      const result = await itextCheckAt(fileOf(name), [caPemFile], offset);
      expect(result.output, `iText at ${offset ?? "now"}`).toMatch(/itext: PASS/);
    }
  }, 600_000);

  it("records the level on every stamp transaction and answers it, and on the completed process", () => {
    const built = recorded.slice(0, -1);
    expect(built.length).toBeGreaterThanOrEqual(7);
    for (const record of built) expect([record.answered, record.stored]).toEqual(["B-LT", "B-LT"]);
    expect(processLevel).toBe("B-LTA");
  });

  it("fetches an outside CA's CRL once and serves later signatures from the cache until its nextUpdate", () => {
    expect(outsideCrlRequests).toBe(1);
  });

  it("signs at B-T when an outside certificate's revocation data cannot be had, and says so in the answer and the record", async () => {
    expect(offlineRecord.answered).toBe("B-T");
    expect(offlineRecord.stored).toBe("B-T");
    expect(offlineRecord.unavailable.join("\n")).toMatch(/Acme Agente.*HTTP 404/);
    expect(offlineRecord.summary).toMatchObject({ revocationUnavailable: offlineRecord.unavailable });
    const report = await verifyPdfSignatures(offline, anchorsDer);
    expect(report.signatures.map((s) => s.level)).toEqual(["B-T"]);
    // still a valid signature in the independent validator, just not a long-term one
    const file = path.join(dir, "offline.pdf");
    fs.writeFileSync(file, offline);
    expect((await validatePdfAt(file, caPemFile)).output).toMatch(/validate-pdf: PASS/);
    // iText finds no CRL for the outside certificate either: the B-T claim is the honest one
    expect((await itextCheckAt(file, [caPemFile])).output).toMatch(/revocation=no CRL for CN=Acme Agente[\s\S]*itext: FAIL/);
  });
});
