import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { callbackSecretOf, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { staffCookie } from "../fixtures/staff-cookie";
import { callServerAction } from "../fixtures/server-action";
import { processApi, signer, waitFor } from "../fixtures/process-api-client";
import { startCallbackCollector, type CallbackCollector } from "../fixtures/callback-collector";

// The departed employee: an admin who created API credentials and saw the callback secret, then was removed.
let seeded: SeededServer;
let callbacks: CallbackCollector<{ id: string }>;
beforeAll(async () => {
  callbacks = await startCallbackCollector();
  seeded = await startSeededServer();
});
afterAll(async () => {
  await seeded?.server.stop();
  callbacks?.close();
});

const base = () => seeded.server.baseUrl;
const action = (file: "organization" | "api-access", exportedName: string) => ({ page: `/${file}`, exportedName, file: `${file}/actions` });
/** The process-API login: 200 with a token, 404 for an unknown or ended credential. */
async function login(clientname: string, password: string): Promise<{ status: number; token?: string }> {
  const response = await fetch(`${base()}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: ORG_DOMAIN, clientname, password }) });
  return { status: response.status, token: response.status === 200 ? (await response.json()).access_token : undefined };
}
const subjectOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).sub as string;
const callbackSecret = (version: number) => callbackSecretOf(crypto.createHash("sha256").update(TEST_SECRET_KEY).digest(), seeded.orgs.shared.id, version);

describe("a removed admin", () => {
  it("their credentials answer 404 at login, the one the owner kept answers only to its new secret, the callback secret they saw is rotated with both signatures for now; all audited", async () => {
    const owner = await staffCookie(base(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const email = `leaver-${crypto.randomUUID().slice(0, 8)}@${ORG_DOMAIN}`;
    const added = await callServerAction(base(), action("organization", "addStaffUserAction"), [{ email, password: "Leaver-Pass-Long-1", role: "admin" }], owner);
    expect(added.result).toMatchObject({ ok: true });
    const leaver = await staffCookie(base(), email, "Leaver-Pass-Long-1");
    const create = async (clientname: string) => {
      const created = await callServerAction<{ ok: boolean; data: { secret: string } }>(base(), action("api-access", "createCredentialAction"), [{ clientname, role: "admin", grants: [] }], leaver);
      expect(created.result, clientname).toMatchObject({ ok: true });
      return created.result!.data.secret;
    };
    const droppedSecret = await create("ci-dropped@demo.local");
    const keptSecret = await create("ci-kept@demo.local");
    const revealed = await callServerAction<{ ok: boolean; data: string }>(base(), action("api-access", "revealCallbackSecretAction"), [], leaver);
    expect(revealed.result).toMatchObject({ ok: true, data: callbackSecret(1) });
    const dropped = await login("ci-dropped@demo.local", droppedSecret);
    const kept = await login("ci-kept@demo.local", keptSecret);
    expect([dropped.status, kept.status]).toEqual([200, 200]);
    const leaverId = JSON.parse(Buffer.from((await (await fetch(`${base()}/api/v3/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "Leaver-Pass-Long-1" }) })).json()).token.split(".")[1], "base64url").toString()).sub;

    const removed = await callServerAction<{ ok: boolean; message: string; data: { clientname: string; secret: string }[] }>(
      base(), action("organization", "removeStaffUserAction"), [{ userId: leaverId, reassign: [subjectOf(kept.token!)] }], owner,
    );
    expect(removed.result).toMatchObject({ ok: true, data: [{ clientname: "ci-kept@demo.local", secret: expect.any(String) }] });
    const newSecret = removed.result!.data[0].secret;

    // the credential they created and did not hand over: ended at login and for its live token
    expect((await login("ci-dropped@demo.local", droppedSecret)).status).toBe(404);
    expect((await processApi(base(), dropped.token!).list()).status).toBe(401);
    // the one the owner kept: the secret the leaver saw is refused, and so is its token; the new one works
    expect((await login("ci-kept@demo.local", keptSecret)).status).toBe(404);
    expect((await processApi(base(), kept.token!).list()).status).toBe(401);
    const renewed = await login("ci-kept@demo.local", newSecret);
    expect(renewed.status).toBe(200);
    const api = processApi(base(), renewed.token!);
    // accepted: nothing created yet, so the list's own 404, not the 401 of an ended token
    expect((await api.list()).status).toBe(404);

    // the next callback carries the new secret's signature and, within 24 h, the old one's
    const response = await api.create({ signers: [signer()], urlCallback: callbacks.url, description: "Tras la salida" });
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect((await api.reject([id])).status).toBe(200);
    const delivery = await waitFor(async () => callbacks.deliveries.find((r) => JSON.parse(r.body).id === id));
    const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(standardWebhookSecret(callbackSecret(2))).verify(delivery.body, headers)).toMatchObject({ id });
    expect(new Webhook(standardWebhookSecret(callbackSecret(1))).verify(delivery.body, headers)).toMatchObject({ id });
    expect(() => new Webhook(standardWebhookSecret(callbackSecret(3))).verify(delivery.body, headers)).toThrow();
    expect(delivery.headers["x-signature"]).toBe(`sha256=${crypto.createHmac("sha256", callbackSecret(2)).update(delivery.body).digest("hex")}`);

    const audit = await (await fetch(`${base()}/audit`, { headers: { cookie: owner } })).text();
    for (const title of ["callback_secret.revealed", "credential.revoked", "credential.reassigned", "callback_secret.rotated", "staff.removed"]) expect(audit, title).toContain(`title="${title}"`);
  });
});
