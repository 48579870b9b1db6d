import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";
import { completeSignerSignature } from "../complete-signer-signature";
import { confirmSignerNames } from "../confirm-signer-names";
import { prepareSignerSignature } from "../prepare-signer-signature";
import { recordFacialResult } from "../record-facial-result";
import { admitFacialTicket, settleFacialTicket, spendFacialTicket } from "../facial-ticket-ledger";

/**
 * The signer use-case tests' world: an embedded database with two organizations (a shared link and
 * per-signer links), processes made through createProcess, and the steps a signer's pages take.
 * Call it once at the top of a test file: it opens the database before the file's tests and
 * removes it after.
 */
export function signerTestWorld() {
  const pdfBytes = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
  const links = { secretKey: new Uint8Array(32).fill(7), publicUrl: "https://firmas.test" };
  let db: Db;
  let close: () => Promise<void>;
  let dir: string;
  const blobs = () => createFsBlobStore(path.join(dir, "blobs"));
  const callers: Record<string, { credentialId: string; clientname: string; role: "admin"; organizationId: string; organizationDomain: string }> = {};

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-signers-"));
    const database = await openDatabase({ dataDir: dir });
    db = database.db;
    close = database.close;
    for (const mode of ["shared", "per-signer"] as const) {
      const { organization } = await createOrganization({ domain: `${mode}.test`, ownerEmail: `o@${mode}.test`, ownerPassword: "Owner-Password-1" }, db);
      await db.update(organizations).set({ linkMode: mode }).where(eq(organizations.id, organization.id));
      callers[mode] = { credentialId: crypto.randomUUID(), clientname: `api@${mode}.test`, role: "admin", organizationId: organization.id, organizationDomain: organization.domain };
    }
  }, 60_000);
  afterAll(async () => {
    await close?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function newProcess(mode: "shared" | "per-signer", fields: Record<string, unknown>) {
    const caller = { ...callers[mode], credentialId: null as unknown as string };
    const parsed = ZCreateProcessFields.parse(fields);
    const created = await createProcess({ caller, fields: parsed, files: [{ field: "pdfFiles", filename: "a.pdf", contentType: "application/pdf", bytes: pdfBytes }] }, {
      db,
      blobs: blobs(),
      links,
      pools: testWorkerPools(),
    });
    const tokens = typeof created.msg === "string" ? [created.msg] : (created.msg as { link: string }[]).map((m) => m.link);
    return { id: created.id, tokens: tokens.map((l) => l.split("/").pop()!) };
  }

  /** Stands in for the lead's cryptographic step: stores a "signed" revision and reports it. */
  async function signAs(token: string, signerId: string, sessionId = SESSION) {
    await confirmSignerNames({ token, signerId, names: { given_name: "Ana", family_name: "Pérez" } }, db);
    const plan = await prepareSignerSignature({ token, signerId, sessionId }, db);
    const signedDocuments = [];
    for (const d of plan.documents) {
      const bytes = new Uint8Array([...pdfBytes, ...new TextEncoder().encode(`\n% signed by ${plan.signer.docId}\n`)]);
      await blobs().put(d.outputBlobKey, bytes, "application/pdf");
      signedDocuments.push({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "x".repeat(64), baseBlobKey: d.blobKey, signaturesLevel: null });
    }
    return { plan, result: await completeSignerSignature({ token, signerId, sessionId, signedDocuments }, db) };
  }

  /** The signer session the tries below are made in (the cookie's session id). */
  const SESSION = "session-of-the-signer";

  /** One facial try as the flow makes it (against a registry photo): a ticket is issued and spent (which counts the try), then the result and the level it proves recorded. */
  async function facialTry(input: { token: string; signerId: string; result: boolean; score: number; selfieBlobKey: string }) {
    const attempt = await spendNewTicket(input.signerId);
    return recordFacialResult({ ...input, attempt, sessionId: SESSION, ...(input.result ? { identity: { level: "registry" as const, method: "registry-photo" as const, at: new Date().toISOString(), session: SESSION } } : {}) }, db);
  }

  async function spendNewTicket(signerId: string): Promise<number> {
    const nonce = crypto.randomUUID().slice(0, 16);
    await admitFacialTicket({ signerId, nonce }, db);
    const attempt = await spendFacialTicket({ signerId, nonce }, db);
    await settleFacialTicket({ signerId, nonce, outcome: "counted" }, db);
    return attempt;
  }

  return {
    get db() {
      return db;
    },
    callers,
    links,
    newProcess,
    signAs,
    facialTry,
    spendNewTicket,
  };
}
