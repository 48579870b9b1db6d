import crypto from "node:crypto";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackSecretOf, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { ADMIN_API_SECRET, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { startWebhookReceiver, type WebhookReceiver } from "../fixtures/webhook-receiver";
import { startControllableTsa } from "../fixtures/controllable-tsa";
import { validatePdf } from "../fixtures/independent-validators";

/**
 * Kill tests: background work lives in the outbox, so a server killed with SIGKILL in the middle of
 * it finishes it after a restart (or buries it with a reason), and callbacks stay one event per
 * `webhook-id`. Every wait is on a condition with a generous limit: CI is a busy machine.
 */
const LONG = 240_000;
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const stampSigner = { names: "Ana", last_names: "Kill Test", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };

let seeded: SeededServer;
let receiver: WebhookReceiver;
let tsa: Awaited<ReturnType<typeof startControllableTsa>>;
let smtp: SMTPServer;
let smtpMode: "hold" | "accept" = "accept";
const mails: { to: string; data: string }[] = [];
const heldMails: string[] = [];
let env: Record<string, string> = {};
const METRICS_TOKEN = "outbox-kill-metrics-token-0123456789";

/** Outbox rows still `running` on the live server (its metrics read the table at scrape time). */
async function runningJobs(): Promise<number> {
  const body = await (await fetch(`${server().baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = body.split("\n").find((l) => l.startsWith('firmaviva_outbox_jobs{status="running"}'));
  return line ? Number(line.split(" ").pop()) : NaN;
}

const server = () => seeded.server;
async function restart(): Promise<TestServer> {
  if (server().process.exitCode === null && server().process.signalCode === null) await server().kill();
  seeded.server = await startTestServer({ dataDir: server().dataDir, env: { ...env, ...(server().databaseUrl ? { DATABASE_URL: server().databaseUrl! } : {}) } });
  return seeded.server;
}
async function processClient(): Promise<ProcessApi> {
  const { shared } = seeded.orgs;
  return processApi(server().baseUrl, await login(server().baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
}
async function stampClient(): Promise<StampApiClient> {
  const api = new StampApiClient(server().baseUrl);
  await api.login("v2");
  return api;
}

beforeAll(async () => {
  let orgId = "";
  receiver = await startWebhookReceiver(() => standardWebhookSecret(callbackSecretOf(crypto.createHash("sha256").update(TEST_SECRET_KEY).digest(), orgId, 1)));
  tsa = await startControllableTsa(() => server().baseUrl);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString("utf8")));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        if (smtpMode === "hold") return void heldMails.push(to); // never answers: the server is killed while it waits
        mails.push({ to, data });
        callback();
      });
    },
  });
  smtp.on("error", () => undefined); // connections cut by SIGKILL
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  env = {
    SECRET_KEY: TEST_SECRET_KEY,
    OUTBOX_RETRY_BASE_SECONDS: "1",
    INSTANCE_ID: "kill-test",
    METRICS_TOKEN,
    TSA_URL: tsa.url,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
  };
  seeded = await startSeededServer({ env });
  orgId = seeded.orgs.shared.id;
}, LONG);
afterAll(async () => {
  await seeded?.server.stop();
  receiver?.close();
  tsa?.close();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

describe("outbox survives SIGKILL", () => {
  it("delivers every callback that was failing at the kill after a restart, one event per webhook-id", async () => {
    receiver.setMode("fail");
    const api = await processClient();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await api.create({ signers: [signer({ contactInfo: undefined })], urlCallback: receiver.url })).json()).id);
    expect((await api.reject(ids)).status).toBe(200);
    const idsOf = () => new Set(receiver.posts.map((p) => p.webhookId));
    await waitFor(async () => idsOf().size >= 3, LONG);
    await server().kill();
    receiver.setMode("accept");
    await restart();
    await waitFor(async () => ids.every((id) => receiver.eventFor(id)), LONG);
    // the receiver has answered; the job is marked done right after, which a stop must not cut short
    await waitFor(async () => (await runningJobs()) === 0, LONG);
    await server().stop();
    await seeded.withDb(async (db) => {
      const { outbox } = await import("@/db/schema");
      const { eq } = await import("drizzle-orm");
      const jobs = await db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
      for (const id of ids) expect(jobs.filter((j) => j.payload.processId === id).map((j) => j.status)).toEqual(["done"]);
    });
    for (const id of ids) {
      const event = receiver.eventFor(id)!;
      expect(event).toMatchObject({ status: "rejected", webhookId: expect.stringMatching(/^msg_/) });
      // every retry carried the same id, and it was accepted once (the job was done after it)
      expect(receiver.accepted.filter((a) => a.processId === id)).toHaveLength(1);
      expect(receiver.posts.filter((p) => p.webhookId === event.webhookId).length).toBeGreaterThanOrEqual(2);
    }
    expect(receiver.posts.every((p) => p.verified)).toBe(true);
    expect(receiver.conflicts).toEqual([]);
    await restart();
  }, 3 * LONG);

  it("redelivers a callback cut off by the kill under the same webhook-id", async () => {
    receiver.setMode("hold");
    const api = await processClient();
    const { id } = await (await api.create({ signers: [signer({ contactInfo: undefined })], urlCallback: receiver.url })).json();
    expect((await api.reject([id])).status).toBe(200);
    await waitFor(async () => receiver.held.length > 0, LONG);
    const cutId = receiver.posts.at(-1)!.webhookId;
    await server().kill();
    receiver.held.splice(0).forEach((res) => res.destroy());
    receiver.setMode("accept");
    await restart();
    const event = await waitFor(async () => receiver.eventFor(id), LONG);
    expect(event.webhookId).toBe(cutId);
    expect(receiver.conflicts).toEqual([]);
  }, 3 * LONG);

  it("finishes an async signature whose worker was killed while asking the TSA", async () => {
    tsa.setMode({ kind: "hold" });
    const before = tsa.requests();
    const api = await stampClient();
    const body = await (await api.signPdf({ ...stampSigner, async: 1 }, { pdf: contract })).json();
    expect(body).toMatchObject({ success: true });
    await waitFor(async () => tsa.requests() > before, LONG);
    await server().kill();
    tsa.setMode({ kind: "forward" });
    await restart();
    const after = await stampClient();
    const result = await waitFor(async () => {
      const r = await after.getSignedPdf(body.tx_token);
      return r.status !== 202 && r;
    }, LONG);
    const answer = await result.json();
    expect(result.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
    const check = validatePdf(new Uint8Array(Buffer.from(answer.signed_pdf, "base64")), await after.caPem());
    expect(check.pass, check.output).toBe(true);
    expect(check.signatures).toBe(1);
  }, 3 * LONG);

  it("sends an e-mail whose send was cut off by the kill", async () => {
    smtpMode = "hold";
    const api = await processClient();
    const address = `kill-${Date.now()}@example.com`;
    const { msg } = await (await api.create({ signers: [signer({ contactInfo: { type: "email", value: address } })] })).json();
    await waitFor(async () => heldMails.includes(address), LONG);
    await server().kill();
    smtpMode = "accept";
    await restart();
    await waitFor(async () => mails.some((m) => m.to === address), LONG);
    expect(mails.filter((m) => m.to === address)).toHaveLength(1);
    // the link's token (the host part follows the restarted server's port); quoted-printable soft breaks removed
    expect(mails.find((m) => m.to === address)!.data.replace(/=\r?\n/g, "")).toContain(String(msg).split("/").pop());
  }, 3 * LONG);

  it("buries a job that kills its worker every time after max_attempts, with the reason", async () => {
    let kills = 0;
    tsa.setMode({ kind: "call", onRequest: () => { kills++; server().process.kill("SIGKILL"); } });
    const api = await stampClient();
    const body = await (await api.signPdf({ ...stampSigner, async: 1 }, { pdf: contract })).json();
    expect(body).toMatchObject({ success: true });
    // async signing allows 3 attempts: each one kills the server, which is started again
    for (let attempt = 1; attempt <= 3; attempt++) {
      await waitFor(async () => kills >= attempt && server().process.signalCode === "SIGKILL", LONG);
      await restart();
    }
    const after = await stampClient();
    const result = await waitFor(async () => {
      const r = await after.getSignedPdf(body.tx_token);
      return r.status !== 202 && r;
    }, LONG);
    expect(result.status).toBe(422);
    expect((await result.json()).message).toMatch(/3 intentos/);
    expect(kills).toBe(3);
    tsa.setMode({ kind: "forward" });
  }, 5 * LONG);
});
