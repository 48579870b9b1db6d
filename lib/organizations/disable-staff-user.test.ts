import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { apiCredentials, auditLog, organizations, users } from "@/db/schema";
import { isAppError } from "@/lib/errors";
import { issueProcessToken } from "@/lib/auth/issue-process-token";
import { verifyProcessToken } from "@/lib/auth/verify-process-token";
import { createCredential } from "@/lib/credentials/create-credential";
import { revealCallbackSecret } from "@/lib/callbacks/reveal-callback-secret";
import { CALLBACK_SECRET_OVERLAP_MS, callbackSecretOf, callbackSigningSecrets, standardWebhookHeaders, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { bootstrapPlatform } from "./bootstrap-platform";
import { createStaffUser } from "./create-staff-user";
import { disableStaffUser } from "./disable-staff-user";

let db: Db;
let close: () => Promise<void>;
let dir: string;
let org: { id: string };
let owner: { id: string; email: string };
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-departure-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
  const boot = await bootstrapPlatform({ domain: "leave.test", adminEmail: "owner@leave.test", adminPassword: "Leave-Owner-Pass-1" }, db);
  org = boot!.organization;
  owner = boot!.owner;
}, 60_000);
afterAll(async () => {
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const secretKey = new Uint8Array(32).fill(9);
const outcome = <T>(promise: Promise<T>) => promise.then(() => "ok", (error: unknown) => (isAppError(error) ? error.code : error));
const processLogin = (clientname: string, password: string) => issueProcessToken({ username: "leave.test", clientname, password, address: "192.0.2.7" }, { db, secretKey });
const addAdmin = (name: string) => createStaffUser({ organizationId: org.id, email: `${name}@leave.test`, password: "Leaver-Pass-Long-1", role: "admin" }, db);
const credentialBy = (userId: string, clientname: string, secret: string) =>
  createCredential({ organizationId: org.id, clientname, secret, role: "operator", actor: "someone", createdByUserId: userId }, db);
const organizationRow = async () => (await db.select().from(organizations).where(eq(organizations.id, org.id)))[0];
const auditOf = (action: string) => db.select({ actor: auditLog.actor, target: auditLog.target, detail: auditLog.detail }).from(auditLog).where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, action))).orderBy(asc(auditLog.id));

describe("removing a staff member ends what they created and saw", () => {
  it("revokes their credentials, re-assigns the kept one with a new secret (old secret and old tokens refused), rotates the callback secret they saw; all audited", async () => {
    const leaver = await addAdmin("leaver");
    await credentialBy(leaver.id, "dropped@leave.test", "dropped-secret-1");
    const kept = await credentialBy(leaver.id, "kept@leave.test", "kept-secret-1");
    await credentialBy(owner.id, "owners@leave.test", "owners-secret-1");
    const oldToken = await processLogin("kept@leave.test", "kept-secret-1");
    expect(await outcome(verifyProcessToken(oldToken, { db, secretKey }))).toBe("ok");
    const revealed = await revealCallbackSecret({ organizationId: org.id, userId: leaver.id, actor: leaver.email }, { db, secretKey });
    expect(revealed).toEqual({ version: 1, secret: callbackSecretOf(secretKey, org.id, 1) });

    const before = Date.now();
    const removal = await disableStaffUser({ organizationId: org.id, userId: leaver.id, actingUserId: owner.id, actor: owner.email, reassign: [kept.id] }, db);
    expect(removal.callbackSecretRotated).toBe(true);
    expect(removal.reassigned).toEqual([{ clientname: "kept@leave.test", secret: expect.any(String) }]);
    const newSecret = removal.reassigned[0].secret;

    expect(await outcome(processLogin("dropped@leave.test", "dropped-secret-1"))).toBe("INVALID_CREDENTIALS");
    expect(await outcome(processLogin("kept@leave.test", "kept-secret-1"))).toBe("INVALID_CREDENTIALS");
    expect(await outcome(verifyProcessToken(oldToken, { db, secretKey }))).toBe("UNAUTHORIZED");
    const newToken = await processLogin("kept@leave.test", newSecret);
    expect(await outcome(verifyProcessToken(newToken, { db, secretKey }))).toBe("ok");
    expect(await outcome(processLogin("owners@leave.test", "owners-secret-1"))).toBe("ok");
    const [keptRow] = await db.select().from(apiCredentials).where(eq(apiCredentials.id, kept.id));
    expect(keptRow.createdByUserId).toBe(owner.id);

    const rotated = await organizationRow();
    expect(rotated.callbackSecretVersion).toBe(2);
    const until = rotated.callbackSecretPreviousUntil!.getTime();
    expect(until).toBeGreaterThanOrEqual(before + CALLBACK_SECRET_OVERLAP_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + CALLBACK_SECRET_OVERLAP_MS);
    const [v2, v1] = [callbackSecretOf(secretKey, org.id, 2), callbackSecretOf(secretKey, org.id, 1)];
    expect(callbackSigningSecrets(secretKey, rotated, until - 1)).toEqual([v2, v1]);
    expect(callbackSigningSecrets(secretKey, rotated, until)).toEqual([v2]);
    // what a receiver sees: during the overlap both secrets verify, after it only the new one
    const delivery = (at: number) => {
      const body = JSON.stringify({ id: "p1", status: "signed" });
      const headers = standardWebhookHeaders(callbackSigningSecrets(secretKey, rotated, at), { id: "msg_p1_signed", timestamp: Math.floor(Date.now() / 1000), body });
      return { body, headers, verifies: (secret: string) => outcome(Promise.resolve().then(() => new Webhook(standardWebhookSecret(secret)).verify(body, headers))) };
    };
    const during = delivery(until - 1);
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect([await during.verifies(v2), await during.verifies(v1)]).toEqual(["ok", "ok"]);
    const after = delivery(until);
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(await after.verifies(v2)).toBe("ok");
    expect(await after.verifies(v1)).not.toBe("ok");

    expect(await auditOf("callback_secret.revealed")).toEqual([{ actor: leaver.email, target: "v1", detail: { userId: leaver.id, version: 1 } }]);
    expect(await auditOf("credential.reassigned")).toEqual([{ actor: owner.email, target: "kept@leave.test", detail: expect.objectContaining({ credentialId: kept.id, from: leaver.email, to: owner.email }) }]);
    expect((await auditOf("credential.revoked")).map((r) => r.target)).toEqual(["dropped@leave.test"]);
    expect(await auditOf("callback_secret.rotated")).toEqual([{ actor: owner.email, target: "v2", detail: expect.objectContaining({ version: 2, previousAcceptedUntil: new Date(until).toISOString() }) }]);
    expect(await auditOf("staff.removed")).toEqual([{ actor: owner.email, target: leaver.email, detail: { userId: leaver.id, reassigned: ["kept@leave.test"], callbackSecretRotated: true } }]);
    expect(await verifyAuditChain({ organizationId: org.id }, db)).toMatchObject({ intact: true });
  });

  it("someone who never saw the current callback secret leaves it alone; a credential they did not create cannot be re-assigned through them", async () => {
    const other = await addAdmin("quiet");
    const theirs = await credentialBy(other.id, "quiet-ci@leave.test", "quiet-secret-1");
    const [ownersCredential] = await db.select().from(apiCredentials).where(eq(apiCredentials.clientname, "owners@leave.test"));
    const refused = disableStaffUser({ organizationId: org.id, userId: other.id, actingUserId: owner.id, actor: owner.email, reassign: [ownersCredential.id] }, db);
    expect(await outcome(refused)).toBe("VALIDATION");
    // nothing of the refused removal stayed
    expect((await db.select().from(users).where(eq(users.id, other.id)))[0].disabledAt).toBeNull();
    expect(await outcome(processLogin("quiet-ci@leave.test", "quiet-secret-1"))).toBe("ok");

    const version = (await organizationRow()).callbackSecretVersion;
    const removal = await disableStaffUser({ organizationId: org.id, userId: other.id, actingUserId: owner.id, actor: owner.email }, db);
    expect(removal).toMatchObject({ callbackSecretRotated: false, reassigned: [] });
    expect((await organizationRow()).callbackSecretVersion).toBe(version);
    expect(await outcome(processLogin("quiet-ci@leave.test", "quiet-secret-1"))).toBe("INVALID_CREDENTIALS");
    expect((await db.select().from(apiCredentials).where(eq(apiCredentials.id, theirs.id)))[0].revokedAt).not.toBeNull();
  });
});
