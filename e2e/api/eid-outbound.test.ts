import net from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { staffCookie } from "../fixtures/staff-cookie";
import { callServerAction } from "../fixtures/server-action";
import { runAdminCli } from "../fixtures/run-admin-cli";

// A tenant admin names the eID issuer. Before: an http://127.0.0.1:<port> issuer, or an https name
// resolving to loopback, made the server connect there as soon as a signer started a login (a port
// scanner), and a new issuer received the stored client secret. The listener counts connections.
let server: TestServer;
let listener: net.Server;
let hits = 0;
let port = 0;

beforeAll(async () => {
  listener = net.createServer((socket) => {
    hits++;
    socket.destroy();
  });
  // every interface: whatever address the machine's own name resolves to reaches the listener
  await new Promise<void>((resolve) => listener.listen(0, resolve));
  port = (listener.address() as net.AddressInfo).port;
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  listener?.close();
});

const settings = (issuer: string, clientSecret = "the-client-secret") => ({
  displayName: "Proveedor del atacante",
  issuer,
  clientId: "client",
  clientSecret,
  scopes: "profile",
  documentNumberClaim: "document_number",
  givenNameClaim: "given_name",
  familyNameClaim: "family_name",
});

async function saveIssuer(issuer: string, clientSecret?: string) {
  const owner = await staffCookie(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const saved = await callServerAction<{ ok: boolean; message: string }>(
    server.baseUrl,
    { page: "/organization", exportedName: "saveIdentityProviderAction", file: "organization/identity-provider-actions" },
    [settings(issuer, clientSecret)],
    owner,
  );
  return saved.result!;
}

/** A signer of a new eID process presses "Identificarme": the server discovers the provider. */
async function startLogin() {
  const api = processApi(server.baseUrl, await login(server.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
  const person = signer({ signChallenges: ["eid"] });
  const created = await api.create({ signers: [person], description: "eID hacia la red interna" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(server.baseUrl, (await created.json()).msg as string);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return fetch(`${server.baseUrl}/api/signer/${flow.token}/eid`, { method: "POST", headers: { cookie: flow.cookie() } });
}

async function restartAfter(command: "on" | "off") {
  await server.stop();
  const cli = runAdminCli(["org:private-callbacks", ORG_DOMAIN, command], server);
  expect(cli.code, cli.stderr).toBe(0);
  server = await startTestServer({ dataDir: server.dataDir, env: server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {} });
}

describe("the eID issuer is not a request forger", () => {
  it("refuses a loopback issuer on save, and never connects to a name that resolves to loopback", async () => {
    expect(await saveIssuer(`http://127.0.0.1:${port}`)).toMatchObject({ ok: false, message: expect.stringMatching(/privada|loopback/) });
    expect(await saveIssuer(`https://127.0.0.1:${port}`)).toMatchObject({ ok: false });
    // a name (this machine's own, resolving to a local address) is only resolved at request time:
    // the save passes, the connection does not
    expect(await saveIssuer(`https://localhost:${port}`)).toMatchObject({ ok: false });
    expect(await saveIssuer(`https://${os.hostname()}:${port}`)).toMatchObject({ ok: true });
    const started = await startLogin();
    expect(started.status).toBe(502);
    expect(await started.json()).toMatchObject({ reason: "eid_unreachable" });
    expect(hits).toBe(0);
  }, 120_000);

  it("asks for the client secret again when the issuer changes (the old one never goes to a new issuer)", async () => {
    expect(await saveIssuer(`https://${os.hostname()}:${port + 1}`, "")).toMatchObject({ ok: false, message: expect.stringContaining("clientSecret es obligatorio al cambiar el issuer") });
    expect(await saveIssuer(`https://${os.hostname()}:${port}`, "")).toMatchObject({ ok: true });
  }, 60_000);

  it("reaches a loopback provider only while the platform admin allows private targets for the organization", async () => {
    await restartAfter("on");
    expect(await saveIssuer(`http://127.0.0.1:${port}`)).toMatchObject({ ok: true });
    expect((await startLogin()).status).toBe(502);
    // the counter-test: with the permission the same issuer is called
    expect(hits).toBeGreaterThan(0);
    const before = hits;

    await restartAfter("off");
    const started = await startLogin();
    expect(await started.json()).toMatchObject({ reason: "eid_unreachable" });
    expect(hits).toBe(before);
  }, 240_000);
});
