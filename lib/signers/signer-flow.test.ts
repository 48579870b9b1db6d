import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { organizations, outbox, processes } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { approveProcess } from "@/lib/processes/approve-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import { completeSignerSignature } from "./complete-signer-signature";
import { confirmSignerNames } from "./confirm-signer-names";
import { declineSignature } from "./decline-signature";
import { openSigningLink } from "./open-signing-link";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { claimFacialAttempt, recordFacialResult } from "./record-facial-result";
import { verifySignerIdentity } from "./verify-signer-identity";

const pdfBytes = new Uint8Array(fs.readFileSync("/work/shared/fixtures/pdfs/valid/libreoffice70-tiny.pdf"));
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
  const created = await createProcess({ caller, fields: parsed, files: [{ field: "pdfFiles", filename: "a.pdf", contentType: "application/pdf", bytes: pdfBytes }] }, db, {
    blobs: blobs(),
    links,
  });
  const tokens = typeof created.msg === "string" ? [created.msg] : (created.msg as { link: string }[]).map((m) => m.link);
  return { id: created.id, tokens: tokens.map((l) => l.split("/").pop()!) };
}

/** Stands in for the lead's cryptographic step: stores a "signed" revision and reports it. */
async function signAs(token: string, signerId: string) {
  await confirmSignerNames({ token, signerId, names: { given_name: "Ana", family_name: "Pérez" } }, db);
  const plan = await prepareSignerSignature({ token, signerId }, db);
  const signedDocuments = [];
  for (const d of plan.documents) {
    const bytes = new Uint8Array([...pdfBytes, ...new TextEncoder().encode(`\n% signed by ${plan.signer.docId}\n`)]);
    await blobs().put(d.outputBlobKey, bytes, "application/pdf");
    signedDocuments.push({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "x".repeat(64), baseBlobKey: d.blobKey });
  }
  return { plan, result: await completeSignerSignature({ token, signerId, signedDocuments }, db) };
}

/** One facial try as the flow makes it (against a registry photo): the attempt is claimed first, then its result and the level it proves recorded. */
async function facialTry(input: { token: string; signerId: string; result: boolean; score: number; selfieBlobKey: string }) {
  const attempt = await claimFacialAttempt(input.signerId, db);
  return recordFacialResult({ ...input, attempt, ...(input.result ? { identity: { level: "registry" as const, method: "registry-photo" as const, at: new Date().toISOString() } } : {}) }, db);
}

describe("signer use cases", () => {
  it("shared link, sign order, facial: identity, facial tries, order, completion with callback", async () => {
    const { id, tokens } = await newProcess("shared", {
      signers: [{ doc_id: "11111111", signChallenges: ["facial"] }, { doc_id: "22222222" }],
      signOrder: true,
      urlCallback: "https://cb.example/hook",
    });
    const [token] = tokens;
    const view = await openSigningLink({ token }, db);
    expect(view).toMatchObject({ processId: id, linkKind: "shared", identityRequired: true, signer: null });
    await expect(verifySignerIdentity({ token, docId: "99999999" }, db)).rejects.toMatchObject({ reason: "wrong_id", attemptsLeft: 4 });
    const second = await verifySignerIdentity({ token, docId: "22222222" }, db);
    await expect(prepareSignerSignature({ token, signerId: second.signerId }, db)).rejects.toMatchObject({ reason: "not_your_turn", code: "FORBIDDEN" });
    const first = await verifySignerIdentity({ token, nat: "PER", docId: "11111111" }, db);
    expect(first.facialRequired).toBe(true);
    await expect(prepareSignerSignature({ token, signerId: first.signerId }, db)).rejects.toMatchObject({ reason: "facial_required" });
    expect(await facialTry({ token, signerId: first.signerId, result: false, score: 0.2, selfieBlobKey: "s/1.jpg" })).toMatchObject({ attemptsLeft: 2, locked: false });
    expect(await facialTry({ token, signerId: first.signerId, result: true, score: 0.97, selfieBlobKey: "s/2.jpg" })).toMatchObject({ result: true, attemptsLeft: 1 });

    const { plan, result } = await signAs(token, first.signerId);
    expect(plan.isLastSigner).toBe(false);
    expect(plan.documents[0]).toMatchObject({ appendStampPage: true, pages: 1, stampPage: { pageIndex: 1 } });
    expect(result).toEqual({ processStatus: "pending", completed: false });
    const last = await signAs(token, second.signerId);
    expect(last.plan.isLastSigner).toBe(true);
    expect(last.plan.documents[0].appendStampPage).toBe(false);
    expect(last.plan.documents[0].stampRect.x).toBeGreaterThan(plan.documents[0].stampRect.x + plan.documents[0].stampRect.width);
    expect(last.result).toEqual({ processStatus: "signed", completed: true });

    const [row] = await db.select().from(processes).where(eq(processes.id, id));
    expect(row.status).toBe("signed");
    const jobs = await db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
    expect(jobs.some((j) => j.payload.processId === id)).toBe(true);
    await expect(openSigningLink({ token }, db)).rejects.toMatchObject({ code: "GONE", reason: "process_completed" });
  });

  it("locks a per-signer link's signer after 5 wrong ID numbers and after 3 failed facial checks", async () => {
    const { tokens } = await newProcess("per-signer", {
      signers: [{ doc_id: "33333333" }, { doc_id: "44444444", signChallenges: ["facial"] }],
    });
    for (let i = 0; i < 4; i++) await expect(verifySignerIdentity({ token: tokens[0], docId: "00000000" }, db)).rejects.toMatchObject({ reason: "wrong_id" });
    await expect(verifySignerIdentity({ token: tokens[0], docId: "00000000" }, db)).rejects.toMatchObject({ code: "LOCKED" });
    await expect(verifySignerIdentity({ token: tokens[0], docId: "33333333" }, db)).rejects.toMatchObject({ code: "LOCKED" });

    const { signerId } = await verifySignerIdentity({ token: tokens[1], docId: "44444444" }, db);
    for (let i = 0; i < 2; i++) await facialTry({ token: tokens[1], signerId, result: false, score: 0.1, selfieBlobKey: "s.jpg" });
    expect(await facialTry({ token: tokens[1], signerId, result: false, score: 0.1, selfieBlobKey: "s.jpg" })).toMatchObject({ locked: true, attemptsLeft: 0 });
    await expect(facialTry({ token: tokens[1], signerId, result: true, score: 1, selfieBlobKey: "s.jpg" })).rejects.toMatchObject({ code: "LOCKED" });
  });

  it("facial tries are claimed atomically: 10 parallel tries get exactly 3 claims, the rest are refused as locked", async () => {
    const { tokens } = await newProcess("per-signer", { signers: [{ doc_id: "77777777", signChallenges: ["facial"] }] });
    const { signerId } = await verifySignerIdentity({ token: tokens[0], docId: "77777777" }, db);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => claimFacialAttempt(signerId, db)));
    expect(outcomes.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<number>).value).sort()).toEqual([1, 2, 3]);
    expect(outcomes.filter((o) => o.status === "rejected").every((o) => (o as PromiseRejectedResult).reason.code === "LOCKED")).toBe(true);
  });

  it("without order, a stale revision is refused (CONFLICT) instead of losing a signature", async () => {
    const { tokens } = await newProcess("per-signer", { signers: [{ doc_id: "55555555" }, { doc_id: "66666666" }], readChallenges: [] });
    const view = await openSigningLink({ token: tokens[0] }, db);
    expect(view.signer).toMatchObject({ identityVerified: false, namesConfirmed: false, isNext: true });
    await confirmSignerNames({ token: tokens[0], signerId: view.signer!.id, names: { given_name: "Eva", family_name: "Soto" } }, db);
    const a = await prepareSignerSignature({ token: tokens[0], signerId: view.signer!.id }, db);
    const bView = await openSigningLink({ token: tokens[1] }, db);
    await signAs(tokens[1], bView.signer!.id);
    const stale = a.documents.map((d) => ({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "y".repeat(64), baseBlobKey: d.blobKey }));
    await expect(completeSignerSignature({ token: tokens[0], signerId: view.signer!.id, signedDocuments: stale }, db)).rejects.toMatchObject({
      code: "CONFLICT",
      reason: "document_changed",
    });
  });

  it("unknown, replaced and declined links give reasons the page can show", async () => {
    await expect(openSigningLink({ token: "x".repeat(43) }, db)).rejects.toMatchObject({ code: "NOT_FOUND", reason: "unknown_link" });
    const { id, tokens } = await newProcess("shared", { signers: [{ doc_id: "77777777" }], readChallenges: [] });
    const result = await declineSignature({ token: tokens[0], reason: "No estoy de acuerdo" }, db);
    expect(result.processStatus).toBe("rejected");
    const [row] = await db.select().from(processes).where(eq(processes.id, id));
    expect(row.status).toBe("rejected");
    await expect(openSigningLink({ token: tokens[0] }, db)).rejects.toMatchObject({ code: "GONE", reason: "process_rejected" });
  });
});

describe("approval", () => {
  it("a process awaiting approval has no link until approved; approval issues links and queues messages", async () => {
    await db.update(organizations).set({ requireApproval: true }).where(eq(organizations.id, callers["per-signer"].organizationId));
    const { id, tokens } = await newProcess("per-signer", { signers: [{ doc_id: "88888888", contactInfo: { type: "email", value: "a@b.pe" } }] });
    expect(tokens).toEqual(["approvalPending"]);
    const before = (await db.select().from(outbox).where(eq(outbox.kind, "email.send"))).filter((j) => j.payload.processId === id);
    expect(before).toHaveLength(0);
    const msg = (await approveProcess({ organizationId: callers["per-signer"].organizationId, processId: id, actor: "owner" }, db, links)) as { link: string; nat_dni: string }[];
    expect(msg).toEqual([{ link: expect.stringMatching(/^https:\/\/firmas\.test\/ui\/signature_processes\//), nat_dni: "PER:88888888" }]);
    const after = (await db.select().from(outbox).where(eq(outbox.kind, "email.send"))).filter((j) => j.payload.processId === id);
    expect(after).toHaveLength(1);
    expect((await openSigningLink({ token: msg[0].link.split("/").pop()! }, db)).processId).toBe(id);
    await expect(approveProcess({ organizationId: callers["per-signer"].organizationId, processId: id, actor: "owner" }, db, links)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(approveProcess({ organizationId: callers.shared.organizationId, processId: id, actor: "owner" }, db, links)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
