import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { auditLog, processEvents, processSigners, signerPageViews } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import type { Services } from "@/lib/runtime/services";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { recordPagesShown } from "./record-pages-shown";
import { signAsProcessSigner } from "./sign-as-process-signer";
import { TEST_CLIENT, showEveryPage } from "./test-support/show-every-page";
import { verifySignerIdentity } from "./verify-signer-identity";
import { confirmSignerNames } from "./confirm-signer-names";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf");

let services: Services;
let dir: string;
let organizationId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-pages-shown-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  ({ organization: { id: organizationId } } = await createOrganization({ domain: "pages.test", ownerEmail: "o@pages.test", ownerPassword: "Owner-Password-1" }, services.db));
}, 60_000);
afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function createTwoSignerProcess() {
  const caller = { credentialId: null as unknown as string, clientname: "api@pages.test", role: "admin" as const, organizationId, organizationDomain: "pages.test" };
  const created = await createProcess(
    {
      caller,
      fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "11111111" }, { doc_id: "22222222" }], signOrder: true, description: "Contrato" }),
      files: [{ field: "pdfFiles", filename: "contrato.pdf", contentType: "application/pdf", bytes: new Uint8Array(fs.readFileSync(CONTRACT)) }],
    },
    { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
  );
  return { processId: created.id, token: String(created.msg).split("/").pop()! };
}

describe("recordPagesShown and the signature that needs it", () => {
  it("refuses signing until every page was shown, rejects pages that do not exist, keeps the first showing, and puts the reading in the evidence", async () => {
    const { processId, token } = await createTwoSignerProcess();
    const { signerId } = await verifySignerIdentity({ token, docId: "11111111" }, services.db);
    await confirmSignerNames({ token, signerId, names: { given_name: "Ana", family_name: "Soto" } }, services.db);
    const plan = await prepareSignerSignature({ token, signerId }, services.db);
    const [document] = plan.documents;
    // the first signer of a file sees only the uploaded pages (the stamp page is a placeholder until signing)
    expect(document.appendStampPage).toBe(true);
    const pages = document.pages;

    await expect(signAsProcessSigner({ token, signerId }, services)).rejects.toMatchObject({ reason: "pages_not_shown", code: "FORBIDDEN" });
    const cases: { name: string; input: { documentId: string; pages: number[] }; field: string }[] = [
      { name: "a page past the end", input: { documentId: document.documentId, pages: [pages] }, field: "pages" },
      { name: "a file of no signer", input: { documentId: "00000000-0000-4000-8000-000000000000", pages: [0] }, field: "documentId" },
    ];
    for (const { name, input, field } of cases) {
      await expect(recordPagesShown({ token, signerId, ...input, client: TEST_CLIENT }, services.db), name).rejects.toMatchObject({ code: "VALIDATION", field });
    }

    const firstReport = await recordPagesShown({ token, signerId, documentId: document.documentId, pages: [0], client: { address: "203.0.113.7", userAgent: "Phone" } }, services.db);
    expect(firstReport).toEqual({ documents: [{ documentId: document.documentId, pages, shown: 1 }], complete: false });
    const [firstRow] = await services.db.select().from(signerPageViews).where(and(eq(signerPageViews.signerId, signerId), eq(signerPageViews.pageIndex, 0)));
    // a later report of the same page changes nothing
    await recordPagesShown({ token, signerId, documentId: document.documentId, pages: [0], client: { address: "198.51.100.1", userAgent: "Other" } }, services.db);
    const again = await services.db.select().from(signerPageViews).where(and(eq(signerPageViews.signerId, signerId), eq(signerPageViews.pageIndex, 0)));
    expect(again).toEqual([firstRow]);
    expect(firstRow).toMatchObject({ address: "203.0.113.7", userAgent: "Phone", documentSha256: document.sha256, processId });

    if (pages > 1) {
      await expect(signAsProcessSigner({ token, signerId }, services)).rejects.toMatchObject({ reason: "pages_not_shown" });
      const [signer] = await services.db.select().from(processSigners).where(eq(processSigners.id, signerId));
      expect(signer.status).toBe("pending");
    }
    await showEveryPage({ token, signerId }, services.db);
    expect(await signAsProcessSigner({ token, signerId, client: { address: "203.0.113.7", userAgent: "Phone" } }, services)).toMatchObject({ processStatus: "pending" });

    const [signed] = await services.db.select().from(processEvents).where(and(eq(processEvents.signerId, signerId), eq(processEvents.kind, "signed")));
    expect(signed.detail).toMatchObject({ client: { address: "203.0.113.7", userAgent: "Phone" }, pagesShown: [{ documentId: document.documentId, pages }] });
    const [audit] = await services.db.select().from(auditLog).where(and(eq(auditLog.action, "signer.signed"), eq(auditLog.target, processId)));
    const evidence = audit.detail as { pagesShown: { firstShownAt: string; lastShownAt: string }[]; client: unknown };
    expect(evidence.client).toEqual({ address: "203.0.113.7", userAgent: "Phone" });
    expect(Date.parse(evidence.pagesShown[0].firstShownAt)).toBe(firstRow.shownAt.getTime());
    expect(Date.parse(evidence.pagesShown[0].lastShownAt)).toBeGreaterThanOrEqual(firstRow.shownAt.getTime());

    // the second signer sees the stamp page the first one added: it counts, and its absence refuses
    const second = await verifySignerIdentity({ token, docId: "22222222" }, services.db);
    await confirmSignerNames({ token, signerId: second.signerId, names: { given_name: "Luis", family_name: "Rojas" } }, services.db);
    const progress = await recordPagesShown(
      { token, signerId: second.signerId, documentId: document.documentId, pages: Array.from({ length: pages }, (_, i) => i), client: TEST_CLIENT },
      services.db,
    );
    expect(progress).toEqual({ documents: [{ documentId: document.documentId, pages: pages + 1, shown: pages }], complete: false });
    await expect(signAsProcessSigner({ token, signerId: second.signerId }, services)).rejects.toMatchObject({ reason: "pages_not_shown" });
    const done = await recordPagesShown({ token, signerId: second.signerId, documentId: document.documentId, pages: [pages], client: TEST_CLIENT }, services.db);
    expect(done.complete).toBe(true);
  }, 180_000);
});
