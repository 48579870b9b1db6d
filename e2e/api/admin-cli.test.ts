import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { runAdminCli } from "../fixtures/run-admin-cli";
import { asc, eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { auditLog, loginThrottles, organizations } from "@/db/schema";

const onPostgres = process.env.TEST_DATABASE === "postgres";

describe("admin CLI", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.skipIf(onPostgres)("refuses to touch the embedded database while the server runs, and the server keeps working", () => {
    const result = runAdminCli(["org:list"], server);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the embedded database in .+ is in use by process \d+; stop it first, or use PostgreSQL/);
    return fetch(`${server.baseUrl}/api/health`).then((r) => expect(r.status).toBe(200));
  });

  it.skipIf(onPostgres)("works on the same DATA_DIR once the server was killed (stale lock)", async () => {
    await server.kill();
    const result = runAdminCli(["org:list"], server);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("demo.local\tactive");
    server = await startTestServer({ dataDir: server.dataDir });
  });

  it.runIf(onPostgres)("works beside a running server on PostgreSQL", () => {
    const result = runAdminCli(["org:list"], server);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("demo.local\tactive");
  });

  it("reports each command's result and fails clearly on bad input", async () => {
    if (!onPostgres) await server.stop();
    const cli = (...args: string[]) => runAdminCli(args, server);
    const withSecret = (secret: string, ...args: string[]) => runAdminCli(args, server, secret);
    expect(withSecret("Acme-Owner-1", "org:create", "--domain", "acme.pe", "--owner-email", "boss@acme.pe")).toMatchObject({
      code: 0,
      stdout: "created organization acme.pe with owner boss@acme.pe\n",
    });
    const duplicate = withSecret("Acme-Owner-1", "org:create", "--domain", "acme.pe", "--owner-email", "x@acme.pe");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("ya existe");
    const weak = withSecret("123", "user:create", "--org", "acme.pe", "--email", "v@acme.pe", "--role", "viewer");
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain("al menos 12 caracteres");
    const unknown = withSecret("Secret-1234", "credential:create", "--org", "nobody.pe", "--clientname", "c@acme.pe", "--role", "admin");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no existe la organización nobody.pe");
    // a secret among the arguments (visible in ps and shell history) is refused before anything is written
    const onCommandLine = cli("user:create", "--org", "acme.pe", "--email", "v@acme.pe", "--password", "Viewer-Pass-1", "--role", "viewer");
    expect(onCommandLine).toMatchObject({ code: 1, stderr: expect.stringContaining("--password is not accepted") });
    expect(cli("user:create", "--org", "acme.pe", "--email", "v@acme.pe", "--role", "viewer")).toMatchObject({ code: 1, stderr: expect.stringContaining("missing the password") });
    expect(withSecret("Viewer-Pass-1", "user:create", "--org", "acme.pe", "--email", "v@acme.pe", "--role", "viewer").code).toBe(0);
    expect(withSecret("Api-Secret-1", "credential:create", "--org", "acme.pe", "--clientname", "api@acme.pe", "--role", "operator").code).toBe(0);
    expect(cli("org:suspend", "acme.pe").stdout).toContain("suspended acme.pe");
    expect(cli("org:list").stdout).toMatch(/acme\.pe\tsuspended\t2 staff/);
    expect(cli("org:reactivate", "acme.pe").code).toBe(0);
    if (!onPostgres) server = await startTestServer({ dataDir: server.dataDir });
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "acme.pe", clientname: "api@acme.pe", password: "Api-Secret-1" }),
    });
    expect(login.status).toBe(200);
  }, 600_000);

  // each CLI run opens the database afresh (seconds on a busy machine): a generous limit of its own
  it("switches private-network callbacks and the time zone, each change audited", async () => {
    if (!onPostgres) await server.stop();
    const cli = (...args: string[]) => runAdminCli(args, server);
    expect(runAdminCli(["org:create", "--domain", "onprem.pe", "--owner-email", "boss@onprem.pe"], server, "Onprem-Owner-1").code).toBe(0);
    expect(cli("org:private-callbacks", "onprem.pe", "on").stdout).toContain("onprem.pe: callbacks may now go to private-network receivers");
    expect(cli("org:private-callbacks", "onprem.pe", "maybe")).toMatchObject({ code: 1, stderr: expect.stringContaining("on or off") });
    expect(cli("org:private-callbacks", "onprem.pe", "off").stdout).toContain("onprem.pe: callbacks to private-network receivers are refused");
    expect(cli("org:time-zone", "onprem.pe", "America/Santiago").stdout).toContain("onprem.pe: dashboard dates in America/Santiago");
    expect(cli("org:time-zone", "onprem.pe", "Mars/Base")).toMatchObject({ code: 1, stderr: expect.stringContaining("zona horaria desconocida") });
    const database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
    try {
      const entries = await database.db.select({ action: auditLog.action, actor: auditLog.actor, detail: auditLog.detail }).from(auditLog).where(eq(auditLog.target, "onprem.pe")).orderBy(asc(auditLog.id));
      expect(entries.filter((e) => e.action.startsWith("organization.private_callbacks") || e.action === "organization.settings_changed")).toEqual([
        { action: "organization.private_callbacks_allowed", actor: "admin-cli", detail: {} },
        { action: "organization.private_callbacks_refused", actor: "admin-cli", detail: {} },
        { action: "organization.settings_changed", actor: "admin-cli", detail: { timeZone: { from: "America/Lima", to: "America/Santiago" } } },
      ]);
      const [row] = await database.db.select().from(organizations).where(eq(organizations.domain, "onprem.pe"));
      expect(row).toMatchObject({ allowPrivateCallbacks: false, timeZone: "America/Santiago" });
    } finally {
      await database.close();
    }
  }, 600_000);

  // last: it changes the platform administrator's password
  it("resets a platform administrator's password (ending their tokens) and lifts an attacker's login block, from the CLI", async () => {
    const stopped = server.process.exitCode !== null || server.process.signalCode !== null;
    if (stopped) server = await startTestServer({ dataDir: server.dataDir });
    const token = async (password: string) =>
      fetch(`${server.baseUrl}/api/v3/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: ADMIN_EMAIL, password }) });
    const held = (await (await token(ADMIN_PASSWORD)).json()).token as string;
    const tokenStatus = (bearer: string) => fetch(`${server.baseUrl}/api/v3/getSignedPDF?tx_token=none&binary_resp=0`, { headers: { authorization: `Bearer ${bearer}` } }).then((r) => r.status);
    expect(await tokenStatus(held)).toBe(404);
    if (!onPostgres) await server.stop();
    // an attacker's long block on the account, from everywhere and from this address
    const database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
    try {
      const blockedUntil = new Date(Date.now() + 15 * 60 * 1000);
      const account = `account:staff:${ADMIN_EMAIL}`;
      await database.db.insert(loginThrottles).values([{ key: account, attempts: 100, blockedUntil }, { key: `${account}|address:127.0.0.1`, attempts: 9, blockedUntil }]);
    } finally {
      await database.close();
    }
    expect(runAdminCli(["login:unblock", "--email", ADMIN_EMAIL], server)).toMatchObject({ code: 0, stdout: `unblocked ${ADMIN_EMAIL} (2 blocks lifted)\n` });
    expect(runAdminCli(["user:reset-password", "--email", ADMIN_EMAIL], server, "Admin-Reset-By-Cli-1")).toMatchObject({ code: 0, stdout: expect.stringContaining(`reset the password of ${ADMIN_EMAIL}`) });
    if (!onPostgres) server = await startTestServer({ dataDir: server.dataDir });
    expect(await tokenStatus(held)).toBe(401);
    expect((await token(ADMIN_PASSWORD)).status).toBe(401);
    expect((await token("Admin-Reset-By-Cli-1")).status).toBe(200);
  }, 600_000);
});
