import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { processDocuments } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { readFormState } from "@/lib/pdf/read-form-state";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import type { Services } from "@/lib/runtime/services";
import { signAsProcessSigner } from "@/lib/signers/sign-as-process-signer";
import { showEveryPage } from "@/lib/signers/test-support/show-every-page";
import { verifySignerIdentity } from "@/lib/signers/verify-signer-identity";
import { confirmSignerNames } from "@/lib/signers/confirm-signer-names";
import { appendRevision, edited, locateSignature, nextObjectNumber, replaceBytes, streamBody, view } from "./testing/forge-pdf";
import { verifyUploadedPdf } from "./verify-uploaded-pdf";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";
import { VALIDATE_PDF } from "@/test/validators/commands";

const CONTRACT = fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf");
const PAY = "BT /F1 24 Tf 72 400 Td (Pagar 1.000.000) Tj ET";

let services: Services;
let dir: string;
let completed: Uint8Array;
let caPem: string;

/** A process completed by two signers through the same use cases the signer pages call. */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-verify-platform-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  const { organization } = await createOrganization({ domain: "verify.test", ownerEmail: "o@verify.test", ownerPassword: "Owner-Password-1" }, services.db);
  const caller = { credentialId: null as unknown as string, clientname: "api@verify.test", role: "admin" as const, organizationId: organization.id, organizationDomain: "verify.test" };
  const created = await createProcess(
    {
      caller,
      fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "11111111" }, { doc_id: "22222222" }], signOrder: true, urlCallback: "https://cb.example/hook", description: "Contrato" }),
      files: [{ field: "pdfFiles", filename: "contrato.pdf", contentType: "application/pdf", bytes: new Uint8Array(fs.readFileSync(CONTRACT)) }],
    },
    { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
  );
  const token = String(created.msg).split("/").pop()!;
  for (const [docId, given, family] of [["11111111", "Ana", "Rojas"], ["22222222", "Luis", "Quispe"]]) {
    const identity = await verifySignerIdentity({ token, docId }, services.db);
    await confirmSignerNames({ token, signerId: identity.signerId, names: { given_name: given, family_name: family } }, services.db);
    await showEveryPage({ token, signerId: identity.signerId }, services.db);
    await signAsProcessSigner({ token, signerId: identity.signerId }, services);
  }
  const [document] = await services.db.select().from(processDocuments).where(eq(processDocuments.processId, created.id));
  completed = new Uint8Array((await services.blobs.get(document.currentBlobKey))!);
  caPem = (await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) })).pem;
}, 180_000);
afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const verify = (bytes: Uint8Array) => verifyUploadedPdf(bytes, { db: services.db, config: services.config, pools: services.pools });

describe("the verifier on a completed two-signer process of this platform", () => {
  it("calls both signatures and our B-LTA document time-stamp valid, as validate-pdf does", async () => {
    const report = await verify(completed);
    expect(report.verdict).toBe("valid");
    expect(report.signatures.map((s) => [s.kind, s.status, s.trusted])).toEqual([
      ["signature", "valid", true],
      ["signature", "valid", true],
      ["document-timestamp", "valid", true],
    ]);
    expect(report.signatures.slice(0, 2).map((s) => s.level)).toEqual(["B-LTA", "B-LTA"]);

    fs.writeFileSync(path.join(dir, "ca.pem"), caPem);
    fs.writeFileSync(path.join(dir, "completed.pdf"), completed);
    const independent = spawnSync(VALIDATE_PDF, [path.join(dir, "completed.pdf"), "--ca", path.join(dir, "ca.pem")], { encoding: "utf8", timeout: 180_000 });
    expect(independent.stdout + independent.stderr).toMatch(/validate-pdf: PASS \(3 signatures\)/);
  });

  it("reports new page text appended after completion as a change to every signature, by revision", async () => {
    const { page, pageRef } = view(completed);
    const n = nextObjectNumber(completed);
    const forged = appendRevision(completed, [{ num: n, body: streamBody(PAY) }, { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) }]);
    const report = await verify(forged);
    expect(report.verdict).toBe("changed");
    for (const signature of report.signatures) expect(signature.changesAfter).toContainEqual(expect.objectContaining({ kind: "page-content", revision: report.revisions - 1 }));
  });

  it("refuses the document time-stamp when its token is swapped for garbage in the unsigned gap", async () => {
    const at = locateSignature(completed, 2);
    const report = await verify(replaceBytes(completed, at.contentsStart + 1, "30820100".padEnd(64, "A")));
    expect(report.verdict).toBe("invalid");
    expect(report.signatures[2].status).toBe("invalid");
  });

  it("refuses a copy whose second signer dictionary was rewritten (another /M) in a later revision", async () => {
    const { pdf, catalog } = view(completed);
    const second = readFormState(pdf, catalog).signatureValues[1];
    const forged = appendRevision(completed, [{ num: second.ref!.objectNumber, body: edited(second.dict, { M: "(D:20200101000000Z)" }) }]);
    const report = await verify(forged);
    expect(report.signatures[1].status).toBe("invalid");
    expect(report.signatures[0].status).not.toBe("valid");
  });
});
