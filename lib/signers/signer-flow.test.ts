import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { auditLog, organizations, outbox, processes, processDocuments, processEvents, processSigners } from "@/db/schema";
import { approveProcess } from "@/lib/processes/approve-process";
import { completeSignerSignature } from "./complete-signer-signature";
import { confirmSignerNames } from "./confirm-signer-names";
import { declineSignature } from "./decline-signature";
import { openSigningLink } from "./open-signing-link";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { admitFacialTicket, spendFacialTicket } from "./facial-ticket-ledger";
import { verifySignerIdentity } from "./verify-signer-identity";
import { unlockSigner } from "./unlock-signer";
import { signerTestWorld } from "./testing/signer-test-world";

const world = signerTestWorld();
const { callers, links, newProcess, signAs, facialTry } = world;
let db: Db;
beforeAll(() => {
  db = world.db;
});

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
    // the pass is the session's that made it: another session with the link and the number proves again
    await expect(prepareSignerSignature({ token, signerId: first.signerId, sessionId: "someone-else" }, db)).rejects.toMatchObject({ reason: "facial_required" });

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

  it("the right ID number is not counted: after 4 wrong ones it gets in twice, and the fifth wrong one still locks", async () => {
    const { tokens } = await newProcess("per-signer", { signers: [{ doc_id: "55555555" }] });
    for (let i = 0; i < 4; i++) await expect(verifySignerIdentity({ token: tokens[0], docId: "00000000" }, db)).rejects.toMatchObject({ reason: "wrong_id", attemptsLeft: 4 - i });
    for (let i = 0; i < 2; i++) await expect(verifySignerIdentity({ token: tokens[0], docId: "55555555" }, db)).resolves.toMatchObject({ facialRequired: false });
    await expect(verifySignerIdentity({ token: tokens[0], docId: "00000000" }, db)).rejects.toMatchObject({ code: "LOCKED" });
    await expect(verifySignerIdentity({ token: tokens[0], docId: "55555555" }, db)).rejects.toMatchObject({ code: "LOCKED" });
  });

  it("facial tries are counted atomically: 6 parallel uploads, each with its own ticket, get exactly 3 tries, the rest are refused as locked", async () => {
    const { tokens } = await newProcess("per-signer", { signers: [{ doc_id: "77777777", signChallenges: ["facial"] }] });
    const { signerId } = await verifySignerIdentity({ token: tokens[0], docId: "77777777" }, db);
    const nonces = Array.from({ length: 6 }, (_, i) => `nonce-race-${i}`.padEnd(16, "r"));
    for (const nonce of nonces) await admitFacialTicket({ signerId, nonce }, db);
    const outcomes = await Promise.allSettled(nonces.map((nonce) => spendFacialTicket({ signerId, nonce }, db)));
    expect(outcomes.filter((o) => o.status === "fulfilled").map((o) => (o as PromiseFulfilledResult<number>).value).sort()).toEqual([1, 2, 3]);
    expect(outcomes.filter((o) => o.status === "rejected").every((o) => (o as PromiseRejectedResult).reason.code === "LOCKED")).toBe(true);
  });

  it("without order, a stale revision is refused (CONFLICT) instead of losing a signature, and none of the signature's other writes stays", async () => {
    const { id, tokens } = await newProcess("per-signer", { signers: [{ doc_id: "55555555" }, { doc_id: "66666666" }], readChallenges: [], urlCallback: "https://cb.example/stale" });
    const view = await openSigningLink({ token: tokens[0] }, db);
    expect(view.signer).toMatchObject({ identityVerified: false, namesConfirmed: false, isNext: true });
    await confirmSignerNames({ token: tokens[0], signerId: view.signer!.id, names: { given_name: "Eva", family_name: "Soto" } }, db);
    const a = await prepareSignerSignature({ token: tokens[0], signerId: view.signer!.id }, db);
    const bView = await openSigningLink({ token: tokens[1] }, db);
    await signAs(tokens[1], bView.signer!.id);
    const stale = a.documents.map((d) => ({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "y".repeat(64), baseBlobKey: d.blobKey, signaturesLevel: null }));
    const auditBefore = await db.select({ id: auditLog.id }).from(auditLog);
    await expect(completeSignerSignature({ token: tokens[0], signerId: view.signer!.id, signedDocuments: stale }, db)).rejects.toMatchObject({
      code: "CONFLICT",
      reason: "document_changed",
    });
    // whatever the completion wrote before it found the file moved on is undone: the signer, the
    // audit entry, the conclusion and its callback
    const [process] = await db.select().from(processes).where(eq(processes.id, id));
    expect(process).toMatchObject({ status: "pending", completedAt: null });
    const [signer] = await db.select().from(processSigners).where(eq(processSigners.id, view.signer!.id));
    expect(signer).toMatchObject({ status: "pending", signedAt: null });
    expect((await db.select().from(processEvents).where(eq(processEvents.processId, id))).map((e) => e.kind).filter((k) => k === "signed" || k === "completed")).toEqual(["signed"]);
    expect((await db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"))).filter((job) => job.payload.processId === id)).toHaveLength(0);
    expect(await db.select({ id: auditLog.id }).from(auditLog)).toHaveLength(auditBefore.length);
  });

  it("only the signer's own files are recorded: another process's file, a missing or a repeated one is refused and nothing moves", async () => {
    const mineProcess = await newProcess("per-signer", { signers: [{ doc_id: "31313131" }], readChallenges: [] });
    const other = await newProcess("per-signer", { signers: [{ doc_id: "32323232" }], readChallenges: [] });
    const view = await openSigningLink({ token: mineProcess.tokens[0] }, db);
    await confirmSignerNames({ token: mineProcess.tokens[0], signerId: view.signer!.id, names: { given_name: "Eva", family_name: "Soto" } }, db);
    const plan = await prepareSignerSignature({ token: mineProcess.tokens[0], signerId: view.signer!.id }, db);
    const [otherDocument] = await db.select().from(processDocuments).where(eq(processDocuments.processId, other.id));
    const own = plan.documents.map((d) => ({ documentId: d.documentId, blobKey: d.outputBlobKey, sha256: "z".repeat(64), baseBlobKey: d.blobKey, signaturesLevel: null }));
    const theirs = { documentId: otherDocument.id, blobKey: "stolen.pdf", sha256: "z".repeat(64), baseBlobKey: otherDocument.currentBlobKey, signaturesLevel: null };
    for (const signedDocuments of [[theirs], [], [...own, ...own], [...own, theirs]]) {
      await expect(completeSignerSignature({ token: mineProcess.tokens[0], signerId: view.signer!.id, signedDocuments }, db)).rejects.toMatchObject({ code: "VALIDATION", field: "signedDocuments" });
    }
    const [untouched] = await db.select().from(processDocuments).where(eq(processDocuments.id, otherDocument.id));
    expect(untouched.currentBlobKey).toBe(otherDocument.currentBlobKey);
    const [stillMine] = await db.select().from(processDocuments).where(eq(processDocuments.processId, mineProcess.id));
    expect(stillMine.currentBlobKey).toBe(plan.documents[0].blobKey);
    expect((await openSigningLink({ token: mineProcess.tokens[0] }, db)).signer).toMatchObject({ id: view.signer!.id });
    // and the signer's own file alone is recorded
    await expect(completeSignerSignature({ token: mineProcess.tokens[0], signerId: view.signer!.id, signedDocuments: own }, db)).resolves.toMatchObject({ completed: true });
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

describe("unlocking a locked signer", () => {
  it("staff unlock gives 3 new tries and keeps every earlier try; a signer that is not locked is refused", async () => {
    const { id, tokens } = await newProcess("per-signer", { signers: [{ doc_id: "12121212", signChallenges: ["facial"] }] });
    const { signerId } = await verifySignerIdentity({ token: tokens[0], docId: "12121212" }, db);
    const organizationId = callers["per-signer"].organizationId;
    await expect(unlockSigner({ organizationId, processId: id, signerId, actor: "reviewer@x" }, db)).rejects.toMatchObject({ code: "CONFLICT" });
    for (let i = 0; i < 3; i++) await facialTry({ token: tokens[0], signerId, result: false, score: 0.1, selfieBlobKey: `s${i}.jpg` });
    await expect(openSigningLink({ token: tokens[0], signerId }, db)).rejects.toMatchObject({ code: "LOCKED" });
    // another organization cannot unlock it
    await expect(unlockSigner({ organizationId: callers.shared.organizationId, processId: id, signerId, actor: "x" }, db)).rejects.toMatchObject({ code: "NOT_FOUND" });

    await unlockSigner({ organizationId, processId: id, signerId, actor: "reviewer@x" }, db);
    expect((await openSigningLink({ token: tokens[0], signerId }, db)).signer).toMatchObject({ facialAttemptsLeft: 3 });
    expect(await facialTry({ token: tokens[0], signerId, result: true, score: 0.9, selfieBlobKey: "s3.jpg" })).toMatchObject({ result: true, attemptsLeft: 2 });
    const events = await db.select().from(processEvents).where(eq(processEvents.processId, id));
    expect(events.filter((e) => e.kind === "facial_recorded")).toHaveLength(4);
    expect(events.find((e) => e.kind === "signer_unlocked")).toMatchObject({ actor: "reviewer@x", signerId, detail: { facialAttemptsBefore: 3, newFacialAttempts: 3 } });
    const audit = await db.select().from(auditLog).where(eq(auditLog.target, id));
    expect(audit.map((a) => a.action)).toContain("signer.unlocked");
  });
});

describe("approval", () => {
  it("a process awaiting approval has no link until approved; approval issues links and queues messages", async () => {
    await db.update(organizations).set({ requireApproval: true }).where(eq(organizations.id, callers["per-signer"].organizationId));
    const { id, tokens } = await newProcess("per-signer", { signers: [{ doc_id: "88888888", contactInfo: { type: "email", value: "a@b.pe" } }] });
    expect(tokens).toEqual(["approvalPending"]);
    const before = (await db.select().from(outbox).where(eq(outbox.kind, "email.send"))).filter((j) => j.payload.processId === id);
    expect(before).toHaveLength(0);
    const msg = (await approveProcess({ organizationId: callers["per-signer"].organizationId, processId: id, actor: "owner" }, { db, settings: links })) as { link: string; nat_dni: string }[];
    expect(msg).toEqual([{ link: expect.stringMatching(/^https:\/\/firmas\.test\/ui\/signature_processes\//), nat_dni: "PER:88888888" }]);
    const after = (await db.select().from(outbox).where(eq(outbox.kind, "email.send"))).filter((j) => j.payload.processId === id);
    expect(after).toHaveLength(1);
    expect((await openSigningLink({ token: msg[0].link.split("/").pop()! }, db)).processId).toBe(id);
    await expect(approveProcess({ organizationId: callers["per-signer"].organizationId, processId: id, actor: "owner" }, { db, settings: links })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(approveProcess({ organizationId: callers.shared.organizationId, processId: id, actor: "owner" }, { db, settings: links })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
