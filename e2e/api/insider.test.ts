import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { staffCookie } from "../fixtures/staff-cookie";
import { callServerAction } from "../fixtures/server-action";

// The insider: someone with an account (or who had one) trying to keep or widen access.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const organizationAction = (exportedName: string) => ({ page: "/organization", exportedName, file: "organization/actions" });
const accountAction = (exportedName: string) => ({ page: "/account", exportedName, file: "account/actions" });

async function stampToken(version: "v2" | "v3", email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/${version === "v2" ? "auth" : "v3/auth"}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, `${version} token for ${email}`).toBe(200);
  const body = await response.json();
  return version === "v2" ? body.data.token : body.token;
}
/** 401 when the token no longer names anyone; otherwise the lookup of an unknown tx_token answers. */
const stampStatus = (version: "v2" | "v3", token: string) =>
  fetch(`${server.baseUrl}/api/${version}/getSignedPDF?tx_token=no-such-token&binary_resp=0`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
/** 401 when the dashboard session is over; 404 (an unknown document) while it lives. */
const dashboardStatus = (cookie: string) => fetch(`${server.baseUrl}/api/dashboard/documents/${crypto.randomUUID()}`, { headers: { cookie } }).then((r) => r.status);
const userIdOf = async (email: string, password: string) => JSON.parse(Buffer.from((await stampToken("v3", email, password)).split(".")[1], "base64url").toString()).sub as string;

let adminCookie: string;
async function addStaff(role: "owner" | "operator", password: string) {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@${ORG_DOMAIN}`;
  adminCookie ??= await staffCookie(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const added = await callServerAction(server.baseUrl, organizationAction("addStaffUserAction"), [{ email, password, role }], adminCookie);
  expect(added.result, `adding ${email}`).toMatchObject({ ok: true });
  return { email, password, id: await userIdOf(email, password) };
}

/** Every credential a person holds, checked live: v2 and v3 stamp tokens and a dashboard session. */
async function credentialsOf(user: { email: string; password: string }) {
  const held = { v2: await stampToken("v2", user.email, user.password), v3: await stampToken("v3", user.email, user.password), cookie: await staffCookie(server.baseUrl, user.email, user.password) };
  const statuses = async () => ({ v2: await stampStatus("v2", held.v2), v3: await stampStatus("v3", held.v3), dashboard: await dashboardStatus(held.cookie) });
  expect(await statuses()).toEqual({ v2: 404, v3: 404, dashboard: 404 });
  return { ...held, statuses };
}

const ENDED = { v2: 401, v3: 401, dashboard: 401 };

describe("credentials end with the password", () => {
  it("an owner's reset ends the user's v2/v3 stamp tokens and sessions; the new password's tokens work", async () => {
    const user = await addStaff("operator", "Operator-Pass-1");
    const held = await credentialsOf(user);
    const reset = await callServerAction(server.baseUrl, organizationAction("resetStaffPasswordAction"), [{ userId: user.id, newPassword: "Operator-Pass-2" }], adminCookie);
    expect(reset.result).toMatchObject({ ok: true });
    expect(await held.statuses()).toEqual(ENDED);
    expect(await stampStatus("v2", await stampToken("v2", user.email, "Operator-Pass-2"))).toBe(404);
  });

  it("the user's own password change ends their stamp tokens too", async () => {
    const user = await addStaff("operator", "Operator-Pass-3");
    const held = await credentialsOf(user);
    const changed = await callServerAction(server.baseUrl, accountAction("changePasswordAction"), [{ currentPassword: user.password, newPassword: "Operator-Pass-4" }], held.cookie);
    expect(changed.result).toMatchObject({ ok: true });
    expect(await held.statuses()).toEqual(ENDED);
  });

  it("removing a user ends their stamp tokens", async () => {
    const user = await addStaff("operator", "Operator-Pass-5");
    const held = await credentialsOf(user);
    const removed = await callServerAction(server.baseUrl, organizationAction("removeStaffUserAction"), [{ userId: user.id }], adminCookie);
    expect(removed.result).toMatchObject({ ok: true });
    expect(await held.statuses()).toEqual(ENDED);
  });

  it("the first start's admin credential has its own secret: the admin password does not open it", async () => {
    const login = (password: string) =>
      fetch(`${server.baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: ORG_DOMAIN, clientname: ADMIN_EMAIL, password }) }).then((r) => r.status);
    expect(await login(ADMIN_PASSWORD)).toBe(404);
    expect(await login(ADMIN_API_SECRET)).toBe(200);
    expect(server.output()).toContain(`Process-API credential (POST /api/auth/login): username ${ORG_DOMAIN}, clientname ${ADMIN_EMAIL} (secret from ADMIN_API_SECRET)`);
  });
});

describe("platform-admin takeover", () => {
  it("a second owner cannot reset the platform administrator's password, nor another owner's; the platform administrator can reset an owner's", async () => {
    const second = await addStaff("owner", "Second-Owner-1");
    const third = await addStaff("owner", "Third-Owner-1");
    const operator = await addStaff("operator", "Operator-Pass-6");
    const secondCookie = await staffCookie(server.baseUrl, second.email, second.password);
    const resetBy = (cookie: string, userId: string, newPassword: string) => callServerAction(server.baseUrl, organizationAction("resetStaffPasswordAction"), [{ userId, newPassword }], cookie);

    const adminId = await userIdOf(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await resetBy(secondCookie, adminId, "Taken-Over-Pass-1")).result).toMatchObject({ ok: false, message: expect.stringContaining("administrador de la plataforma solo se restablece con la consola") });
    expect(await stampStatus("v3", await stampToken("v3", ADMIN_EMAIL, ADMIN_PASSWORD))).toBe(404);
    expect((await resetBy(secondCookie, third.id, "Taken-Over-Pass-2")).result).toMatchObject({ ok: false, message: expect.stringContaining("solo un administrador de la plataforma") });
    expect(await stampToken("v3", third.email, third.password)).toBeTruthy();
    // what an owner may still do, and what the platform administrator may
    expect((await resetBy(secondCookie, operator.id, "Operator-Pass-7")).result).toMatchObject({ ok: true });
    expect((await resetBy(adminCookie, third.id, "Third-Owner-2")).result).toMatchObject({ ok: true });
    expect(await stampToken("v3", third.email, "Third-Owner-2")).toBeTruthy();
  });
});

describe("the login paths", () => {
  it("next-auth's own signout revokes the server-side session: the old cookie answers 401 afterwards", async () => {
    const cookie = await staffCookie(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await dashboardStatus(cookie)).toBe(404);
    const csrf = await fetch(`${server.baseUrl}/api/session/csrf`, { headers: { cookie } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signout = await fetch(`${server.baseUrl}/api/session/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${server.baseUrl}/login` }),
    });
    expect(signout.status).toBe(302);
    // the attacker kept a copy of the cookie the browser just dropped
    expect(await dashboardStatus(cookie)).toBe(401);
  });

  it("a 2 MB body to the login is refused before it is read: next-auth's endpoint and the login server action", async () => {
    const big = "a".repeat(2 * 1024 * 1024);
    // the server answers 413 and closes; a client still writing may see the close before the answer
    const refused = (answer: { status: number } | Error) =>
      answer instanceof Error ? String((answer as Error & { cause?: { code?: string } }).cause?.code) : answer.status;
    const callback = await fetch(`${server.baseUrl}/api/session/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: ADMIN_EMAIL, password: big }),
    }).catch((error: Error) => error);
    expect(String(refused(callback))).toMatch(/^413$|EPIPE|ECONNRESET|UND_ERR_SOCKET/);
    // a server action past its 1 MB body limit is refused before the action runs, with 413 (issue 37; Next's own answer was a 500)
    const loginAction = { page: "/login", exportedName: "login", file: "app/login/actions" };
    const action = await callServerAction(server.baseUrl, loginAction, [{ email: ADMIN_EMAIL, password: big }]).catch((error: Error) => error);
    expect(refused(action)).toBe(413);
    if (!(action instanceof Error)) expect(action.result).toBeUndefined();
    // the same action with a body within the limit runs: a wrong password gets the action's own answer
    expect(await callServerAction(server.baseUrl, loginAction, [{ email: ADMIN_EMAIL, password: "wrong-password" }])).toMatchObject({ status: 200 });
    // a body within the limit still signs in through the same endpoint
    expect(await staffCookie(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD)).toContain("session-token");
  });
});
