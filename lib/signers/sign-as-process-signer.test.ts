import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { outbox, processDocuments } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import type { Services } from "@/lib/runtime/services";
import { verifySignerIdentity } from "./verify-signer-identity";
import { signAsProcessSigner } from "./sign-as-process-signer";

const fixtures = "/work/shared/fixtures/pdfs/valid";
const files = ["libreoffice74-contrato-a4.pdf", "ghostscript-gdb-refcard-rotate270.pdf"].map((name) => ({
  field: "pdfFiles",
  filename: name,
  contentType: "application/pdf",
  bytes: new Uint8Array(fs.readFileSync(path.join(fixtures, name))),
}));

let services: Services;
let dir: string;
let organizationId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-process-sign-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  ({ organization: { id: organizationId } } = await createOrganization({ domain: "acme.test", ownerEmail: "o@acme.test", ownerPassword: "Owner-Password-1" }, services.db));
}, 60_000);
afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("signAsProcessSigner", () => {
  it("two signers in order on two files: each file ends with 2 signer signatures and a document timestamp that validate independently", async () => {
    const caller = { credentialId: null as unknown as string, clientname: "api@acme.test", role: "admin" as const, organizationId, organizationDomain: "acme.test" };
    const created = await createProcess(
      {
        caller,
        fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "11111111" }, { doc_id: "22222222" }], signOrder: true, urlCallback: "https://cb.example/hook", description: "Contrato de prueba" }),
        files,
      },
      services.db,
      { blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl } },
    );
    const token = String(created.msg).split("/").pop()!;
    const first = await verifySignerIdentity({ token, docId: "11111111" }, services.db);
    expect(await signAsProcessSigner({ token, signerId: first.signerId, pinfo: { given_name: "Ana María", family_name: "Núñez Pérez" } }, services)).toMatchObject({ processStatus: "pending" });
    const second = await verifySignerIdentity({ token, docId: "22222222" }, services.db);
    expect(await signAsProcessSigner({ token, signerId: second.signerId, pinfo: { given_name: "Luis", family_name: "Gómez" } }, services)).toMatchObject({ processStatus: "signed", completed: true });

    const { pem } = await getCaCertificates(services.db, pkiSettingsOf(services.config));
    fs.writeFileSync(path.join(dir, "ca.pem"), pem);
    const documents = await services.db.select().from(processDocuments).where(eq(processDocuments.processId, created.id));
    expect(documents).toHaveLength(2);
    for (const document of documents) {
      const pdf = await services.blobs.get(document.currentBlobKey);
      const file = path.join(dir, `${document.index}.pdf`);
      fs.writeFileSync(file, pdf!);
      const result = spawnSync("/work/shared/tools/validate-pdf", [file, "--ca", path.join(dir, "ca.pem")], { encoding: "utf8", timeout: 180_000 });
      expect(result.stdout, result.stdout + result.stderr).toMatch(/validate-pdf: PASS \(3 signatures\)/);
      expect(result.stdout).toMatch(/doc-timestamp\s+ETSI.RFC3161/);
      expect(result.stdout).toMatch(/Ana María Núñez Pérez/);
      expect(result.stdout).toMatch(/IDCPER-11111111|serialNumber=IDCPER-11111111/);
      expect(result.stdout).toMatch(/Luis Gómez/);
      if (document.index === 0) fs.copyFileSync(file, path.join(os.tmpdir(), "process-signed-example.pdf"));
    }
    const callbacks = await services.db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
    expect(callbacks).toHaveLength(1);
  });
});
