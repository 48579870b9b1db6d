import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { auditLog } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { getCaCertificates } from "@/lib/certificates/get-ca-certificates";
import { pkiSettingsOf } from "@/lib/certificates/pki-settings";
import { loadConfig } from "@/lib/config/load-config";
import { createOrganization } from "@/lib/organizations/create-organization";
import { pdfsigValidations, qpdfCheck, validatePdf } from "@/lib/pdf/test-support/run-validators";
import { createProcess } from "@/lib/processes/create-process";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import type { Services } from "@/lib/runtime/services";
import { signAsProcessSigner } from "@/lib/signers/sign-as-process-signer";
import { startSignerSession } from "@/lib/signers/start-signer-session";
import { showEveryPage } from "@/lib/signers/test-support/show-every-page";
import { confirmSignerNames } from "@/lib/signers/confirm-signer-names";
import { produceEvidenceSummary } from "./produce-evidence-summary";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const CONTRACT = fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf");
const PHONE = { address: "203.0.113.44", userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36" };

let services: Services;
let dir: string;
let organizationId: string;
let otherOrganizationId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-evidence-"));
  const config = loadConfig({ DATA_DIR: path.join(dir, "data"), PUBLIC_URL: "http://127.0.0.1:9" });
  const database = await openDatabase({ dataDir: config.dataDir });
  services = { config, db: database.db, databaseKind: "pglite", pools: testWorkerPools(), blobs: createFsBlobStore(path.join(dir, "blobs")), close: database.close };
  ({ organization: { id: organizationId } } = await createOrganization({ domain: "evidence.test", ownerEmail: "o@evidence.test", ownerPassword: "Owner-Password-1" }, services.db));
  ({ organization: { id: otherOrganizationId } } = await createOrganization({ domain: "other.test", ownerEmail: "o@other.test", ownerPassword: "Owner-Password-1" }, services.db));
}, 60_000);
afterAll(async () => {
  await services?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("produceEvidenceSummary", () => {
  it("a PDF signed by the agent certificate that passes qpdf, pdfsig and validate-pdf and states devices, checks, pages shown and times", async () => {
    const caller = { credentialId: null as unknown as string, clientname: "api@evidence.test", role: "admin" as const, organizationId, organizationDomain: "evidence.test" };
    const created = await createProcess(
      {
        caller,
        fields: ZCreateProcessFields.parse({ signers: [{ doc_id: "11111111", signerAlias: "Ana Rojas" }, { doc_id: "22222222" }], description: "Contrato de arriendo" }),
        files: [{ field: "pdfFiles", filename: "contrato.pdf", contentType: "application/pdf", bytes: new Uint8Array(fs.readFileSync(CONTRACT)) }],
      },
      { db: services.db, blobs: services.blobs, links: { secretKey: services.config.secretKey, publicUrl: services.config.publicUrl }, pools: services.pools },
    );
    const token = String(created.msg).split("/").pop()!;
    const { signerId } = await startSignerSession({ token, nat: "PER", docId: "11111111", client: PHONE }, services.db);
    // a facial try as the facial step records it (the evidence reads the timeline, whoever wrote it)
    await recordProcessEvent(
      { processId: created.id, organizationId, kind: "facial_recorded", signerId, detail: { result: true, score: 0.812, attempt: 1, reference: "id-document", idDocument: { numberSource: "mrz", mrzValid: true }, challenges: ["turn-left", "smile"], live: true, livenessReasons: [], similarity: 0.812, threshold: 0.61, client: PHONE } },
      services.db,
    );
    await confirmSignerNames({ token, signerId, names: { given_name: "Ana", family_name: "Soto" } }, services.db);
    await showEveryPage({ token, signerId }, services.db);
    await signAsProcessSigner({ token, signerId, client: PHONE }, services);

    const summary = await produceEvidenceSummary({ organizationId, processId: created.id, actor: "o@evidence.test" }, services);
    expect(summary.fileName).toBe(`evidencias-${created.id.split(":")[0]}.pdf`);
    const file = path.join(dir, "evidence.pdf");
    fs.writeFileSync(file, summary.pdf);
    fs.copyFileSync(file, path.join(os.tmpdir(), "evidence-summary-example.pdf"));
    const qpdf = await qpdfCheck(file);
    expect(qpdf.ok, qpdf.output).toBe(true);
    expect(await pdfsigValidations(file)).toEqual(["Signature is Valid."]);
    const caFile = path.join(dir, "ca.pem");
    fs.writeFileSync(caFile, (await getCaCertificates({ db: services.db, settings: pkiSettingsOf(services.config) })).pem);
    const strict = await validatePdf(file, caFile);
    expect(strict.ok, strict.output).toBe(true);
    expect(spawnSync("pdfsig", [file], { encoding: "utf8" }).stdout).toMatch(/Signer Certificate Common Name: .*evidence\.test|Signer full Distinguished Name: .*evidence\.test/i);

    const text = spawnSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(text).toContain("Resumen de evidencias del proceso de firma");
    expect(text).toContain(created.id);
    expect(text).toContain("Contrato de arriendo");
    expect(text).toContain("Firmante 1 — Ana Rojas (PER 11111111) · firmado");
    expect(text).toContain("IP 203.0.113.44");
    expect(text).toContain("Pixel 8");
    expect(text).toContain("con número de documento");
    expect(text).toMatch(/intento 1 · aprobada · referencia: foto del documento de identidad \(número leído de la zona MRZ\) · movimientos: turn-left, smile · prueba de vida: superada · similitud 0\.812 \(umbral 0\.610\)/);
    expect(text).toMatch(/contrato\.pdf: 2 páginas, entre \d{4}-\d\d-\d\d [\d:.]+ UTC y/);
    expect(text).toMatch(/p\.1 [\d:.]+ · p\.2 [\d:.]+/);
    expect(text).toMatch(/Firmó \d{4}-\d\d-\d\d/);
    expect(text).toContain("Firmante 2 (PER 22222222) · pendiente");
    expect(text).toContain("signer.signed");

    const [exported] = await services.db.select().from(auditLog).where(and(eq(auditLog.action, "process.evidence_exported"), eq(auditLog.target, created.id)));
    expect(exported.actor).toBe("o@evidence.test");
    expect(exported.detail).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // another organization's staff: not found, nothing exported
    await expect(produceEvidenceSummary({ organizationId: otherOrganizationId, processId: created.id, actor: "o@other.test" }, services)).rejects.toMatchObject({ code: "NOT_FOUND" });
  }, 240_000);
});
