import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { stampTransactions, users } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createTestPki, type TestPki } from "@/lib/pdf/test-support/create-test-pki";
import type { Services } from "@/lib/runtime/services";
import { requestStampSignature } from "@/lib/stamp-signing/request-stamp-signature";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { verifyPdfSignatures } from "@/lib/verification/verify-pdf-signatures";
import { validatePdfAt } from "./testing/long-term-checks";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf")));

let services: Services;
let dir: string;
let outsideTsa: TestPki;
let tsaServer: http.Server;
let tsaRequests = 0;
let answer: { level: string | null; stored: string | null; pdf: Uint8Array };

/**
 * TSA_URL pointing at an outside RFC 3161 service (openssl ts, its CA trusted through
 * TRUST_ANCHORS_FILE) whose certificate has no CRL anywhere: the signature time-stamp is valid,
 * but nothing in the DSS covers the TSA's chain (a known limit, docs/pdf-engine.md).
 */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-external-tsa-"));
  outsideTsa = createTestPki();
  tsaServer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = ++tsaRequests;
      fs.writeFileSync(path.join(outsideTsa.dir, `ext${id}.tsq`), Buffer.concat(chunks));
      execFileSync("openssl", ["ts", "-reply", "-config", "tsa.cnf", "-queryfile", `ext${id}.tsq`, "-signer", "tsa.pem", "-inkey", "tsa.key", "-chain", "ca.pem", "-out", `ext${id}.tsr`], { cwd: outsideTsa.dir, stdio: "pipe" });
      response.writeHead(200, { "content-type": "application/timestamp-reply" }).end(fs.readFileSync(path.join(outsideTsa.dir, `ext${id}.tsr`)));
    });
  });
  await new Promise<void>((resolve) => tsaServer.listen(0, "127.0.0.1", resolve));
  const config = loadConfig({
    DATA_DIR: path.join(dir, "data"),
    PUBLIC_URL: "http://127.0.0.1:9",
    TSA_URL: `http://127.0.0.1:${(tsaServer.address() as AddressInfo).port}/tsa`,
    TRUST_ANCHORS_FILE: outsideTsa.caPemPath,
  });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const { organization, owner } = await createOrganization({ domain: "tsa.test", ownerEmail: "o@tsa.test", ownerPassword: "Owner-Password-1" }, services.db);
  const [user] = await services.db.select().from(users).where(eq(users.id, owner.id));
  const caller = { userId: user.id, email: user.email, role: user.role, organizationId: organization.id, organizationDomain: "tsa.test", organizationTimeZone: "America/Lima", isPlatformAdmin: false };
  const result = await requestStampSignature({ caller, fields: ZSignPdfFields.parse({}), pdf: { field: "pdf_file", filename: "c.pdf", contentType: "application/pdf", bytes: CONTRACT } }, services);
  if (result.mode !== "sync") throw new Error("expected a synchronous signature");
  const [row] = await services.db.select().from(stampTransactions).where(eq(stampTransactions.txToken, result.txToken));
  answer = { level: result.padesLevel, stored: row.padesLevel, pdf: result.pdf };
  fs.writeFileSync(path.join(dir, "ca.pem"), (await getCaCertificates({ db: services.db, settings: pkiSettingsOf(config) })).pem + fs.readFileSync(outsideTsa.caPemPath, "utf8"));
}, 300_000);

afterAll(async () => {
  await services?.close();
  tsaServer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a stamp time-stamped by an external TSA_URL whose certificate has no revocation data", () => {
  it("is time-stamped by that TSA, and the signature is valid for an independent validator", async () => {
    expect(tsaRequests).toBeGreaterThanOrEqual(1);
    const file = path.join(dir, "external-tsa.pdf");
    fs.writeFileSync(file, answer.pdf);
    expect((await validatePdfAt(file, path.join(dir, "ca.pem"))).output).toMatch(/validate-pdf: PASS \(1 signature\)/);
  });

  it("is measured, answered and recorded as B-T, never B-LT", async () => {
    const anchors = [outsideTsa.caDer, (await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) })).rootDer];
    const report = await verifyPdfSignatures(answer.pdf, anchors);
    expect(report.signatures.map((s) => [s.timeStamp?.valid, s.level])).toEqual([[true, "B-T"]]);
    expect(answer.level).toBe("B-T");
    expect(answer.stored).toBe("B-T");
  });
});
