import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { runAdminCli } from "../fixtures/run-admin-cli";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";

const onPostgres = process.env.TEST_DATABASE === "postgres";
const contract = fixture("pdfs/valid/libreoffice70-tiny.pdf");

/**
 * Suspending an organization stops its tokens at the next call. On the embedded database the CLI
 * cannot run beside the server, so the server is stopped around it; tokens outlive the restart.
 */
describe("organization suspension", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ waitForHealth: false }).then(async (s) => {
      await s.stop();
      return s;
    });
    const created = runAdminCli(["org:create", "--domain", "acme.pe", "--owner-email", "owner@acme.pe"], server, "Acme-Owner-1");
    expect(created.code, created.stderr).toBe(0);
    expect(runAdminCli(["credential:create", "--org", "acme.pe", "--clientname", "api@acme.pe", "--role", "admin"], server, "Acme-Api-Secret-1").code).toBe(0);
    server = await startTestServer({ dataDir: server.dataDir, env: server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {} });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses the stamp token and the process token of a suspended organization, and keeps its data", async () => {
    let stamp = new StampApiClient(server.baseUrl);
    await stamp.login("v2", { email: "owner@acme.pe", password: "Acme-Owner-1" });
    expect((await stamp.signPdf({ tx_token: "SuspendBefore0000001" }, { pdf: contract })).status).toBe(200);
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "acme.pe", clientname: "api@acme.pe", password: "Acme-Api-Secret-1" }),
    });
    const { access_token } = await login.json();
    const listLabels = () => fetch(`${server.baseUrl}/api/labels`, { headers: { authorization: `jwt-bearer ${access_token}` } });
    expect((await listLabels()).status).not.toBe(401);

    if (!onPostgres) await server.stop();
    const suspended = runAdminCli(["org:suspend", "acme.pe"], server);
    expect(suspended.code, suspended.stderr).toBe(0);
    if (!onPostgres) server = await startTestServer({ dataDir: server.dataDir });

    stamp = new StampApiClient(server.baseUrl, stamp.token);
    const refusedStamp = await stamp.signPdf({}, { pdf: contract });
    expect(refusedStamp.status).toBe(401);
    expect((await refusedStamp.json()).success).toBe(false);
    const refusedProcess = await listLabels();
    expect(refusedProcess.status).toBe(401);
    expect(await refusedProcess.text()).toBe("unauthorized");
    const relogin = await fetch(`${server.baseUrl}/api/v3/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "owner@acme.pe", password: "Acme-Owner-1" }) });
    expect(relogin.status).toBe(401);

    if (!onPostgres) await server.stop();
    expect(runAdminCli(["org:reactivate", "acme.pe"], server).code).toBe(0);
    if (!onPostgres) server = await startTestServer({ dataDir: server.dataDir });
    stamp = new StampApiClient(server.baseUrl);
    await stamp.login("v2", { email: "owner@acme.pe", password: "Acme-Owner-1" });
    // the transaction made before the suspension is still there
    expect((await stamp.getSignedPdf("SuspendBefore0000001")).status).toBe(200);
  });
});
