import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { auditLog, organizationIdentityProviders, organizations, processEvents, processSigners, signerEidLogins } from "@/db/schema";
import { createFsBlobStore } from "@/lib/blob-store/fs-blob-store";
import { startMintedTokenProvider } from "@/lib/identity-assurance/eid/testing/minted-token-provider";
import { describeIdentityProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { saveIdentityProvider } from "@/lib/identity-assurance/eid/save-identity-provider";
import { createOrganization } from "@/lib/organizations/create-organization";
import { createProcess } from "@/lib/processes/create-process";
import { ZCreateProcessFields } from "@/lib/processes/schemas";
import { confirmSignerNames } from "./confirm-signer-names";
import { finishEidLogin } from "./finish-eid-login";
import { prepareSignerSignature } from "./prepare-signer-signature";
import { startEidLogin } from "./start-eid-login";
import { verifySignerIdentity } from "./verify-signer-identity";
import { testWorkerPools } from "@/lib/server/testing/test-pools";
import { fixturePath } from "@/test/fixtures-dir";

const pdfBytes = new Uint8Array(fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf")));
const secretKey = new Uint8Array(32).fill(9);
const links = { secretKey, publicUrl: "https://firmas.test" };
const redirectUri = "https://firmas.test/ui/signature_processes/eid/callback";
const CLIENT_ID = "firmaviva-unit";
const CLIENT_SECRET = "very-secret-client-secret";
let db: Db;
let close: () => Promise<void>;
let dir: string;
let op: Awaited<ReturnType<typeof startMintedTokenProvider>>;
let caller: { credentialId: string; clientname: string; role: "admin"; organizationId: string; organizationDomain: string };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fv-eid-"));
  ({ db, close } = await openDatabase({ dataDir: dir }));
  op = await startMintedTokenProvider(CLIENT_ID);
  const { organization } = await createOrganization({ domain: "eid.test", ownerEmail: "o@eid.test", ownerPassword: "Owner-Password-1" }, db);
  caller = { credentialId: null as unknown as string, clientname: "api@eid.test", role: "admin", organizationId: organization.id, organizationDomain: organization.domain };
  // the test provider listens on loopback, which only an organization the platform admin allowed
  // private targets may use (issue 37)
  await db.update(organizations).set({ allowPrivateCallbacks: true }).where(eq(organizations.id, organization.id));
}, 60_000);
afterAll(async () => {
  await op?.close();
  await close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const eidProcess = (docId: string) =>
  createProcess(
    { caller, fields: ZCreateProcessFields.parse({ signers: JSON.stringify([{ nat: "PER", doc_id: docId, signChallenges: ["eid"] }]) }), files: [{ field: "pdfFiles", filename: "a.pdf", contentType: "application/pdf", bytes: pdfBytes }] },
    { db, blobs: createFsBlobStore(path.join(dir, "blobs")), links, pools: testWorkerPools() },
  );

/** An identified eID signer and a started login (state, nonce stored). */
async function startedLogin(docId: string) {
  const created = await eidProcess(docId);
  const token = String(created.msg).split("/").pop()!;
  const { signerId } = await verifySignerIdentity({ token, docId }, db);
  const started = await startEidLogin({ token, signerId, sessionId: "s-test" }, { db, secretKey, redirectUri });
  if (!("loginId" in started)) throw new Error(`start failed: ${started.failed}`);
  const url = new URL(started.authorizationUrl);
  const callback = (state = url.searchParams.get("state")!) => new URL(`${redirectUri}?code=c&state=${state}`);
  return { token, signerId, loginId: started.loginId, url, nonce: url.searchParams.get("nonce")!, callback };
}
const signerRow = async (id: string) => (await db.select().from(processSigners).where(eq(processSigners.id, id)))[0];

describe("eID login (signChallenges eid)", () => {
  it("refuses an eid signer at creation while the organization has no provider, naming the field", async () => {
    await expect(eidProcess("45678912")).rejects.toMatchObject({ code: "VALIDATION", field: "signers.0.signChallenges" });
  });

  it("stores the provider with its secret sealed, never shown back, and audits it without the secret", async () => {
    const settings = { displayName: "eID de prueba", issuer: op.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: "profile", documentNumberClaim: "document_number", givenNameClaim: "given_name", familyNameClaim: "family_name" };
    await saveIdentityProvider({ organizationId: caller.organizationId, settings, actor: "o@eid.test" }, { db, secretKey });
    const [row] = await db.select().from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, caller.organizationId));
    expect(Buffer.from(row.clientSecretEncrypted).toString("latin1")).not.toContain(CLIENT_SECRET);
    expect(row.scopes).toBe("openid profile");
    expect(JSON.stringify(await describeIdentityProvider({ organizationId: caller.organizationId }, db))).not.toContain(CLIENT_SECRET);
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "organization.identity_provider_saved"));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].detail)).not.toContain(CLIENT_SECRET);
    // an empty secret keeps the stored one
    await saveIdentityProvider({ organizationId: caller.organizationId, settings: { ...settings, clientSecret: "" }, actor: "o@eid.test" }, { db, secretKey });
    const [again] = await db.select().from(organizationIdentityProviders).where(eq(organizationIdentityProviders.organizationId, caller.organizationId));
    expect(Buffer.from(again.clientSecretEncrypted)).toEqual(Buffer.from(row.clientSecretEncrypted));
  });

  it("the matching document number gives level eid, the provider's names (not editable), and lets the signer go on", async () => {
    const login = await startedLogin("45678912");
    expect(login.url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(login.url.searchParams.get("redirect_uri")).toBe(redirectUri);
    await expect(prepareSignerSignature({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, db)).rejects.toMatchObject({ reason: "eid_required" });
    await op.mint(login.nonce);
    await expect(finishEidLogin({ loginId: login.loginId, callbackUrl: login.callback() }, { db, secretKey })).resolves.toEqual({ token: login.token, outcome: "ok" });
    const row = await signerRow(login.signerId);
    expect(row.identity).toMatchObject({ level: "eid", method: "oidc", provider: op.issuer, session: "s-test", names: { given_name: "ANA", family_name: "QUISPE" } });
    expect(row.identityVerifiedAt).not.toBeNull();
    expect(row.pinfo).toEqual({ given_name: "ANA", family_name: "QUISPE" });
    await expect(confirmSignerNames({ token: login.token, signerId: login.signerId, names: { given_name: "Otro", family_name: "Nombre" } }, db)).rejects.toMatchObject({ reason: "names_from_eid" });
    await confirmSignerNames({ token: login.token, signerId: login.signerId, names: { given_name: "ANA", family_name: "QUISPE" } }, db);
    await expect(prepareSignerSignature({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, db)).resolves.toBeTruthy();
    // the login belongs to the session that started it: another session on the link logs in again
    await expect(prepareSignerSignature({ token: login.token, signerId: login.signerId, sessionId: "s-other" }, db)).rejects.toMatchObject({ reason: "eid_required" });
    // reloading the callback is not a new try
    await finishEidLogin({ loginId: login.loginId, callbackUrl: login.callback() }, { db, secretKey });
    expect((await signerRow(login.signerId)).facialAttempts).toBe(1);
  });

  it("another person's number and a replayed login each count a try; the third locks the signer", async () => {
    const login = await startedLogin("11223344");
    await op.mint(login.nonce); // the provider vouches for 45678912, not 11223344
    await expect(finishEidLogin({ loginId: login.loginId, callbackUrl: login.callback() }, { db, secretKey })).resolves.toMatchObject({ outcome: "other_person" });
    expect((await signerRow(login.signerId)).identity).toBeNull();

    const second = await startEidLogin({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, { db, secretKey, redirectUri });
    if (!("loginId" in second)) throw new Error("start failed");
    const secondState = new URL(second.authorizationUrl).searchParams;
    const secondCallback = new URL(`${redirectUri}?code=c&state=${secondState.get("state")}`);
    await op.mint(secondState.get("nonce")!);
    await expect(finishEidLogin({ loginId: second.loginId, callbackUrl: secondCallback }, { db, secretKey })).resolves.toMatchObject({ outcome: "other_person" });
    // the same login again, with its own state: already consumed, answered as a stale state and counted
    await expect(finishEidLogin({ loginId: second.loginId, callbackUrl: secondCallback }, { db, secretKey })).resolves.toMatchObject({ outcome: "locked" });
    const row = await signerRow(login.signerId);
    expect(row.lockedAt).not.toBeNull();
    expect(row.facialAttempts).toBe(3);
    const events = await db.select().from(processEvents).where(eq(processEvents.signerId, login.signerId));
    expect(events.filter((e) => e.kind === "eid_recorded").map((e) => (e.detail as { reason: string }).reason)).toEqual(["other_person", "other_person", "state"]);
    await expect(startEidLogin({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, { db, secretKey, redirectUri })).rejects.toMatchObject({ reason: "locked" });
  });

  it.each([
    ["a state this browser's login did not send", (_other: URL) => new URL(`${redirectUri}?code=c&state=guessed`)],
    ["no state at all", (_other: URL) => new URL(`${redirectUri}?code=c`)],
    ["another browser's login state", (other: URL) => other],
  ])("a forced callback with %s counts no try and leaves the login open for the real answer", async (_name, forged) => {
    const mine = await startedLogin(String(30_000_000 + Math.floor(Math.random() * 9_999_999)));
    const theirs = await startedLogin(String(60_000_000 + Math.floor(Math.random() * 9_999_999)));
    for (const [login, other] of [[mine, theirs], [theirs, mine]]) {
      await expect(finishEidLogin({ loginId: login.loginId, callbackUrl: forged(other.callback()) }, { db, secretKey })).resolves.toEqual({ token: null, refused: "foreign_state" });
    }
    for (const login of [mine, theirs]) {
      const row = await signerRow(login.signerId);
      expect([row.facialAttempts, row.lockedAt]).toEqual([0, null]);
      expect((await db.select().from(signerEidLogins).where(eq(signerEidLogins.id, login.loginId)))[0].consumedAt).toBeNull();
    }
    // the provider's real answer, with this browser's state, is still taken (and is the first try)
    await op.mint(mine.nonce, { claims: { document_number: (await signerRow(mine.signerId)).docId } });
    await expect(finishEidLogin({ loginId: mine.loginId, callbackUrl: mine.callback() }, { db, secretKey })).resolves.toEqual({ token: mine.token, outcome: "ok" });
    expect((await signerRow(mine.signerId)).facialAttempts).toBe(1);
  });

  it("starting logins is bounded per signer (10 per 10 minutes)", async () => {
    const login = await startedLogin("55667788");
    for (let i = 1; i < 10; i++) await startEidLogin({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, { db, secretKey, redirectUri });
    await expect(startEidLogin({ token: login.token, signerId: login.signerId, sessionId: "s-test" }, { db, secretKey, redirectUri })).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect((await signerRow(login.signerId)).facialAttempts).toBe(0);
  });

  it("a browser without a live login cookie names no signer and counts nothing", async () => {
    await expect(finishEidLogin({ loginId: null, callbackUrl: new URL(`${redirectUri}?code=c&state=s`) }, { db, secretKey })).resolves.toEqual({ token: null, refused: "no_login" });
    await expect(finishEidLogin({ loginId: crypto.randomUUID(), callbackUrl: new URL(`${redirectUri}?code=c&state=s`) }, { db, secretKey })).resolves.toEqual({ token: null, refused: "no_login" });
  });
});
