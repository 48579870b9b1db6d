import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { outbox, processDocuments, processEvents, processes, processSigners } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCallbackPayload, ZCreateProcessFields } from "@/lib/processes/schemas";
import { formatProcess } from "@/lib/processes/format-process";
import { loadProcessRecords } from "@/lib/processes/load-process-records";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import type { Services } from "@/lib/runtime/services";
import { renderPage } from "@/lib/pdf/test-support/render-page";
import { readWordBoxes } from "@/lib/pdf/test-support/read-word-boxes";
import { verifySignerIdentity } from "./verify-signer-identity";
import { signAsProcessSigner } from "./sign-as-process-signer";
import { showEveryPage } from "./test-support/show-every-page";
import { readingTimesOf, type PagesShown } from "./record-pages-shown";
import { confirmSignerNames } from "./confirm-signer-names";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";
import { VALIDATE_PDF } from "@/test/validators/commands";

const fixtures = fixturePath("pdfs/valid");
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
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
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
      { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
    );
    const token = String(created.msg).split("/").pop()!;
    const first = await verifySignerIdentity({ token, docId: "11111111" }, services.db);
    await expect(signAsProcessSigner({ token, signerId: first.signerId }, services)).rejects.toMatchObject({ reason: "names_required" });
    await confirmSignerNames({ token, signerId: first.signerId, names: { given_name: "Ana María", family_name: "Núñez Pérez" } }, services.db);
    await showEveryPage({ token, signerId: first.signerId }, services.db);
    expect(await signAsProcessSigner({ token, signerId: first.signerId }, services)).toMatchObject({ processStatus: "pending" });
    const second = await verifySignerIdentity({ token, docId: "22222222" }, services.db);
    await confirmSignerNames({ token, signerId: second.signerId, names: { given_name: "Luis", family_name: "Gómez" } }, services.db);
    await showEveryPage({ token, signerId: second.signerId }, services.db);
    expect(await signAsProcessSigner({ token, signerId: second.signerId }, services)).toMatchObject({ processStatus: "signed", completed: true });

    const { pem } = await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) });
    fs.writeFileSync(path.join(dir, "ca.pem"), pem);
    const documents = await services.db.select().from(processDocuments).where(eq(processDocuments.processId, created.id));
    expect(documents).toHaveLength(2);
    for (const document of documents) {
      const pdf = await services.blobs.get(document.currentBlobKey);
      const file = path.join(dir, `${document.index}.pdf`);
      fs.writeFileSync(file, pdf!);
      const result = spawnSync(VALIDATE_PDF, [file, "--ca", path.join(dir, "ca.pem")], { encoding: "utf8", timeout: 180_000 });
      expect(result.stdout, result.stdout + result.stderr).toMatch(/validate-pdf: PASS \(3 signatures\)/);
      expect(result.stdout).toMatch(/doc-timestamp\s+ETSI.RFC3161/);
      expect(result.stdout).toMatch(/Ana María Núñez Pérez/);
      expect(result.stdout).toMatch(/IDCPER-11111111|serialNumber=IDCPER-11111111/);
      expect(result.stdout).toMatch(/Luis Gómez/);
      // who signed, as pdfsig reads the certificates: given name, surname, serialNumber with doc type and number
      const pdfsig = spawnSync("pdfsig", [file], { encoding: "utf8" }).stdout;
      expect(pdfsig).toContain("CN=Ana María Núñez Pérez,serialNumber=IDCPER-11111111,givenName=Ana María,SN=Núñez Pérez");
      expect(pdfsig).toContain("CN=Luis Gómez,serialNumber=IDCPER-22222222,givenName=Luis,SN=Gómez");
      expect(pdfsig).not.toMatch(/givenName=PER|CN=PER /);
      // and the stamps on the appended page
      const stampText = readWordBoxes(new Uint8Array(pdf!), document.pages + 1).map((w) => w.text).join(" ");
      expect(stampText).toContain("Ana María Núñez Pérez");
      expect(stampText).toContain("Luis Gómez");
      if (document.index === 0) fs.copyFileSync(file, path.join(os.tmpdir(), "process-signed-example.pdf"));
    }
    const callbacks = await services.db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
    expect(callbacks).toHaveLength(1);
    // the timeline: each signature, then the completion the last one made (one insert, in that order)
    const timeline = await services.db.select().from(processEvents).where(eq(processEvents.processId, created.id)).orderBy(asc(processEvents.createdAt), asc(processEvents.id));
    const signing = timeline.filter((event) => event.kind === "signed" || event.kind === "completed");
    expect(signing.map((event) => [event.kind, event.signerId])).toEqual([
      ["signed", first.signerId],
      ["signed", second.signerId],
      ["completed", second.signerId],
    ]);
    expect(signing[1].createdAt.getTime()).toBe(signing[2].createdAt.getTime());
    expect(signing[1].detail).toMatchObject({ documents: expect.arrayContaining(documents.map((d) => d.id)), identity: { level: expect.any(String) } });
    // the reading record in the evidence is the one the signature was planned on, as the record reads it now
    const byDocument = (shown: PagesShown[]) => [...shown].sort((a, b) => a.documentId.localeCompare(b.documentId));
    const recorded = byDocument(signing[1].detail.pagesShown as PagesShown[]);
    expect(recorded).toEqual(byDocument(await readingTimesOf(second.signerId, services.db)));
    expect(recorded.map((shown) => shown.pages)).toEqual(recorded.map((shown) => documents.find((d) => d.id === shown.documentId)!.pages + 1));
    // pinfo in the callback payload (the same formatter the callback delivery uses)
    const [process] = await services.db.select().from(processes).where(eq(processes.id, created.id));
    const [record] = await loadProcessRecords([process], services.db);
    const payload = ZCallbackPayload.parse(formatProcess(record, { dates: "epoch", documentUrl: () => "https://x", selfieUrl: () => "https://y" }));
    expect(payload.signers.map((s) => s.pinfo)).toEqual([
      { given_name: "Ana María", family_name: "Núñez Pérez" },
      { given_name: "Luis", family_name: "Gómez" },
    ]);
  });

  it("reads the signer's file while the certificate is made, yet a refusal is still the refusal, and an unreadable file fails the signature with nothing recorded", async () => {
    const caller = { credentialId: null as unknown as string, clientname: "api@acme.test", role: "admin" as const, organizationId, organizationDomain: "acme.test" };
    const created = await createProcess(
      { caller, fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "33333333" }] }), files: files.slice(0, 1) },
      { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
    );
    const token = String(created.msg).split("/").pop()!;
    const reads: string[] = [];
    // a store whose files can no longer be read (a bucket gone, a disk failing)
    const unreadable = { ...services.blobs, get: async (key: string) => (reads.push(key), Promise.reject(new Error("the blob store is unreachable"))) };
    const signer = await verifySignerIdentity({ token, docId: "33333333" }, services.db);
    await confirmSignerNames({ token, signerId: signer.signerId, names: { given_name: "Eva", family_name: "Ruiz" } }, services.db);
    // not every page shown: that is the answer, and the read that failed meanwhile is nobody's unhandled error
    await expect(signAsProcessSigner({ token, signerId: signer.signerId }, { ...services, blobs: unreadable })).rejects.toMatchObject({ reason: "pages_not_shown" });
    expect(reads).toHaveLength(1);
    await showEveryPage({ token, signerId: signer.signerId }, services.db);
    await expect(signAsProcessSigner({ token, signerId: signer.signerId }, { ...services, blobs: unreadable })).rejects.toThrow("the blob store is unreachable");
    const [row] = await services.db.select().from(processSigners).where(eq(processSigners.id, signer.signerId));
    expect(row.status).toBe("pending");
    // with the store back, the same signer signs
    expect(await signAsProcessSigner({ token, signerId: signer.signerId }, services)).toMatchObject({ processStatus: "signed", completed: true });
  });

  it("draws each stamp exactly at its integer slot on the appended page, readable at 100% zoom in every size and orientation", async () => {
    const caller = { credentialId: null as unknown as string, clientname: "api@acme.test", role: "admin" as const, organizationId, organizationDomain: "acme.test" };
    const styles = [
      { size: 2, orientation: "horizontal" },
      { size: 2, orientation: "vertical" },
      { size: 1, orientation: "vertical" },
      { size: 1, orientation: "horizontal" },
    ] as const;
    const docIds = ["31111111", "32222222", "33333333", "34444444"];
    const created = await createProcess(
      {
        caller,
        fields: ZCreateProcessFields.parse({ signers: docIds.map((doc_id, i) => ({ doc_id, stampPositions: { "0": { "1": styles[i] } } })) }),
        files: [files[0]],
      },
      { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
    );
    const token = String(created.msg).split("/").pop()!;
    for (const [i, docId] of docIds.entries()) {
      const { signerId } = await verifySignerIdentity({ token, docId }, services.db);
      await confirmSignerNames({ token, signerId, names: { given_name: `Nombre${i}`, family_name: `Apellido${i}` } }, services.db);
      await showEveryPage({ token, signerId }, services.db);
      await signAsProcessSigner({ token, signerId }, services);
    }
    const [document] = await services.db.select().from(processDocuments).where(eq(processDocuments.processId, created.id));
    const pdf = (await services.blobs.get(document.currentBlobKey))!;
    const signers = await services.db.select().from(processSigners).where(eq(processSigners.processId, created.id)).orderBy(asc(processSigners.position));
    const stampPage = document.pages + 1;
    const page = renderPage(pdf, stampPage);
    const words = readWordBoxes(pdf, stampPage);
    for (const [i, signer] of signers.entries()) {
      const slot = signer.stampPositions["0"][String(stampPage)];
      expect(Number.isInteger(slot.x) && Number.isInteger(slot.y)).toBe(true);
      expect(slot).toMatchObject(styles[i]);
      const width = (slot.orientation === "vertical" ? 80 : 250) * slot.size;
      const height = (slot.orientation === "vertical" ? 250 : 80) * slot.size;
      // 72 dpi: one pixel per point, origin top-left; the stamp's border marks its outer edge
      const box = { left: slot.x, right: slot.x + width, top: page.height - slot.y - height, bottom: page.height - slot.y };
      expect(page.inkRatio({ left: box.left, right: box.left + 1, top: box.top + 2, bottom: box.bottom - 2 }), `left edge of ${i}`).toBeGreaterThan(0.9);
      expect(page.inkRatio({ left: box.right - 1, right: box.right, top: box.top + 2, bottom: box.bottom - 2 }), `right edge of ${i}`).toBeGreaterThan(0.9);
      expect(page.inkRatio({ left: box.left + 2, right: box.right - 2, top: box.top, bottom: box.top + 1 }), `top edge of ${i}`).toBeGreaterThan(0.9);
      expect(page.inkRatio({ left: box.left + 2, right: box.right - 2, top: box.bottom - 1, bottom: box.bottom }), `bottom edge of ${i}`).toBeGreaterThan(0.9);
      expect(page.inkRatio({ left: box.left - 3, right: box.left - 1, top: box.top, bottom: box.bottom }), `nothing left of ${i}`).toBe(0);
      const inside = words.filter((w) => w.xMin >= box.left && w.xMax <= box.right && w.yMin >= box.top && w.yMax <= box.bottom);
      expect(inside.map((w) => w.text).join(" ")).toContain(`Nombre${i} Apellido${i}`);
      // 6 pt at 100% zoom (decision 13); pdftotext's box spans ascent to descent, above 1.1 em
      for (const word of inside) expect(word.yMax - word.yMin, word.text).toBeGreaterThanOrEqual(6 * slot.size * 1.1);
    }
  }, 240_000);
});
