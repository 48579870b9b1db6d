import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, startTestServer } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor } from "../fixtures/process-api-client";

const RETRY_BASE = "1";

/**
 * Kill test: callbacks are outbox rows, so a server killed with SIGKILL while they are failing
 * delivers each of them exactly once after the restart.
 */
describe("callbacks survive SIGKILL", () => {
  let seeded: SeededServer;
  let receiver: http.Server;
  let accept = false;
  const attempts = new Map<string, { failed: number; delivered: number }>();

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const id = JSON.parse(body).id as string;
        const seen = attempts.get(id) ?? { failed: 0, delivered: 0 };
        if (accept) seen.delivered++;
        else seen.failed++;
        attempts.set(id, seen);
        res.writeHead(accept ? 204 : 503).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    seeded = await startSeededServer({ env: { OUTBOX_RETRY_BASE_SECONDS: RETRY_BASE } });
  });
  afterAll(async () => {
    await seeded?.server.stop();
    receiver?.close();
  });

  it("delivers every pending callback exactly once after a restart", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const { shared } = seeded.orgs;
    const api = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_PASSWORD));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await api.create({ signers: [signer()], urlCallback: url })).json()).id);
    expect((await api.reject(ids)).status).toBe(200);
    await waitFor(async () => ids.every((id) => (attempts.get(id)?.failed ?? 0) >= 1)).catch((e) => { throw new Error(`before kill: ${JSON.stringify([...attempts])} ${e}`); });

    await seeded.server.kill();
    accept = true;
    const restarted = await startTestServer({
      dataDir: seeded.server.dataDir,
      env: { SECRET_KEY: TEST_SECRET_KEY, OUTBOX_RETRY_BASE_SECONDS: RETRY_BASE, ...(seeded.server.databaseUrl ? { DATABASE_URL: seeded.server.databaseUrl } : {}) },
    });
    seeded.server = restarted;
    await waitFor(async () => ids.every((id) => (attempts.get(id)?.delivered ?? 0) >= 1), 60_000).catch((e) => { throw new Error(`after restart: ${JSON.stringify([...attempts])} ${restarted.output().slice(-3000)} ${e}`); });
    // give any duplicate a chance to show up: several retry periods
    await new Promise((r) => setTimeout(r, 5000));
    for (const id of ids) expect(attempts.get(id)!.delivered).toBe(1);
  });
});
