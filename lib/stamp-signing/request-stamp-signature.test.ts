import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { pkiCertificates, stampTransactions, users } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { loadConfig } from "@/lib/config/load-config";
import { isAppError } from "@/lib/errors";
import { createOrganization } from "@/lib/organizations/create-organization";
import type { Services } from "@/lib/runtime/services";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";
import { requestStampSignature } from "./request-stamp-signature";
import { ZSignPdfFields } from "./schemas";
import type { StaffIdentity } from "@/lib/auth/authenticate-staff";

const pdf = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
const fields = ZSignPdfFields.parse({ names: "José", last_names: "Pérez", person_id: "12345678" });
const upload = (bytes: Uint8Array) => ({ field: "pdf_file", filename: "c.pdf", contentType: "application/pdf", bytes: new Uint8Array(bytes) });

let services: Services;
let dir: string;
let caller: StaffIdentity;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-request-stamp-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const { organization, owner } = await createOrganization({ domain: "ahead.test", ownerEmail: "o@ahead.test", ownerPassword: "Owner-Password-1" }, services.db);
  const [user] = await services.db.select().from(users).where(eq(users.id, owner.id));
  caller = { userId: user.id, email: user.email, role: user.role, organizationId: organization.id, organizationDomain: "ahead.test", organizationTimeZone: "America/Lima", isPlatformAdmin: false };
}, 60_000);

afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const agentCertificates = () => services.db.select().from(pkiCertificates).where(and(eq(pkiCertificates.organizationId, caller.organizationId), eq(pkiCertificates.purpose, "agent")));
const transactionOf = async (txToken: string) => (await services.db.select().from(stampTransactions).where(eq(stampTransactions.txToken, txToken)))[0];

describe("requestStampSignature, signed now", () => {
  it("a refused document changes nothing (no agent certificate issued, no transaction); the first signature issues the certificate, the next ones sign with it", async () => {
    const refused = requestStampSignature({ caller, fields: { ...fields, tx_token: "REFUSEDDOCUMENT00001" }, pdf: upload(new TextEncoder().encode("not a pdf at all")) }, services);
    await expect(refused).rejects.toSatisfy((error) => isAppError(error) && error.code === "INVALID_PDF");
    expect(await agentCertificates()).toEqual([]);
    expect(await transactionOf("REFUSEDDOCUMENT00001")).toBeUndefined();

    // the certificate is issued in the claim, after the checks
    for (const txToken of ["FIRSTSIGNATURE000001", "SECONDSIGNATURE00001"]) {
      const signed = await requestStampSignature({ caller, fields: { ...fields, tx_token: txToken }, pdf: upload(pdf) }, services);
      if (signed.mode !== "sync") throw new Error(`signed ${signed.mode}, not now`);
      const row = await transactionOf(txToken);
      expect(row.status).toBe("done");
      expect(await services.blobs.get(row.outputBlobKey!)).toEqual(signed.pdf);
    }
    expect(await agentCertificates()).toHaveLength(1);
  });
});
