import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { PDFArray, PDFDict, PDFName, PDFNumber } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { users } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { openLazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { validatePdf } from "@/lib/pdf/test-support/run-validators";
import type { Services } from "@/lib/runtime/services";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { readDssMaterial } from "@/lib/verification/read-dss-material";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")));
const SIGNATURES = 4;

let services: Services;
let dir: string;
let caPemFile: string;
const outputs: Uint8Array[] = [];

/** One contract stamped four times in a row through the use case the signPDF route calls. */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-dss-dedupe-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const { organization, owner } = await createOrganization({ domain: "dss.test", ownerEmail: "o@dss.test", ownerPassword: "Owner-Password-1" }, services.db);
  const [user] = await services.db.select().from(users).where(eq(users.id, owner.id));
  const caller = { userId: user.id, email: user.email, role: user.role, organizationId: organization.id, organizationDomain: "dss.test", organizationTimeZone: "America/Lima", isPlatformAdmin: false };
  caPemFile = path.join(dir, "ca.pem");
  fs.writeFileSync(caPemFile, (await getCaCertificates({ db: services.db, settings: pkiSettingsOf(config) })).pem);
  let pdf: Uint8Array = CONTRACT;
  for (let i = 0; i < SIGNATURES; i++) {
    const result = await requestStampSignature({ caller, fields: ZSignPdfFields.parse({}), pdf: { field: "pdf_file", filename: "c.pdf", contentType: "application/pdf", bytes: pdf } }, services);
    if (result.mode !== "sync") throw new Error("expected a synchronous signature");
    pdf = result.pdf;
    outputs.push(pdf);
  }
}, 300_000);

afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function dssOf(bytes: Uint8Array) {
  const pdf = openLazyPdf(bytes);
  const catalog = pdf.lookupDict(pdf.trailer.get(PDFName.of("Root")))!;
  const dss = pdf.lookupDict(catalog.get(PDFName.of("DSS")))!;
  const entries = (key: string) => (pdf.lookup(dss.get(PDFName.of(key))) as PDFArray).size();
  const material = readDssMaterial(pdf);
  return { catalog, pdf, certEntries: entries("Certs"), crlEntries: entries("CRLs"), certs: material.certificatesDer.map(digest), crls: material.crlsDer.map(digest) };
}

describe("stamp outputs signed again and again", () => {
  it("hold each certificate and each CRL once in the DSS, however many signatures the file carries", () => {
    for (const [index, output] of outputs.entries()) {
      const dss = dssOf(output);
      expect(dss.certs, `after signature ${index + 1}`).toHaveLength(dss.certEntries);
      expect(new Set(dss.certs).size, `certificates after signature ${index + 1}`).toBe(dss.certEntries);
      expect(new Set(dss.crls).size, `CRLs after signature ${index + 1}`).toBe(dss.crlEntries);
    }
    // agent certificate, issuing CA, root and TSA: the same four after the first and after the fourth signature
    expect(new Set(dssOf(outputs[0]).certs)).toEqual(new Set(dssOf(outputs.at(-1)!).certs));
    expect(dssOf(outputs.at(-1)!).certEntries).toBe(4);
  });

  it("declare /Extensions /ESIC (BaseVersion 1.7, level 5) on the PDF 1.6 contract", () => {
    const { pdf, catalog } = dssOf(outputs.at(-1)!);
    const esic = pdf.lookupDict(pdf.lookupDict(catalog.get(PDFName.of("Extensions")))?.get(PDFName.of("ESIC"))) as PDFDict;
    expect((pdf.lookup(esic.get(PDFName.of("BaseVersion"))) as PDFName).decodeText()).toBe("1.7");
    expect((pdf.lookup(esic.get(PDFName.of("ExtensionLevel"))) as PDFNumber).asNumber()).toBe(5);
  });

  it("stay valid for an independent validator with all four signatures", async () => {
    const file = path.join(dir, "four.pdf");
    fs.writeFileSync(file, outputs.at(-1)!);
    expect((await validatePdf(file, caPemFile)).output).toMatch(/validate-pdf: PASS \(4 signatures\)/);
  });
});
