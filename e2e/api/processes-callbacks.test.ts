import crypto from "node:crypto";
import http from "node:http";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMailbox, outbox, outboxAttempts } from "@/db/schema";
import { Webhook } from "standardwebhooks";
import { callbackSecretOf, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { TINY_PDF, login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";

type Received = { headers: http.IncomingHttpHeaders; body: string };

let seeded: SeededServer;
let admin: ProcessApi;
let receiver: http.Server;
let callbackUrl = "";
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
});
afterAll(async () => {
  await seeded?.server.stop();
  receiver?.close();
});

const callbackFor = (id: string, status: string) =>
  waitFor(async () => received.find((r) => JSON.parse(r.body).id === id && JSON.parse(r.body).status === status));

describe("callback", () => {
  it("a rejected process POSTs the payload signed with the organization's secret", async () => {
    const response = await admin.create({ signers: [signer()], urlCallback: callbackUrl, description: "Con callback" });
    const { id } = await response.json();
    expect((await admin.reject([id])).status).toBe(200);
    const delivery = await callbackFor(id, "rejected");
    const secret = callbackSecretOf(crypto.createHash("sha256").update(TEST_SECRET_KEY).digest(), seeded.orgs.shared.id, 1);
    const expected = `sha256=${crypto.createHmac("sha256", secret).update(delivery.body).digest("hex")}`;
    expect(delivery.headers["x-signature"]).toBe(expected);
    // Standard Webhooks headers, verified by the reference library; a changed body must fail
    const webhook = new Webhook(standardWebhookSecret(secret));
    const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
    expect(headers["webhook-id"]).toBe(`msg_${id.replace(/-/g, "")}_rejected`);
    expect(webhook.verify(delivery.body, headers)).toMatchObject({ id, status: "rejected" });
    expect(() => webhook.verify(delivery.body.replace('"rejected"', '"signed"'), headers)).toThrow();
    expect(() => new Webhook(standardWebhookSecret(callbackSecretOf(crypto.randomBytes(32), seeded.orgs.shared.id, 1))).verify(delivery.body, headers)).toThrow();
    expect(delivery.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(delivery.body);
    for (const key of ["signers_search", "sign_order", "status", "expire", "documents", "signers", "date", "urlCallback", "labels", "readChallenges", "description", "id", "nat", "per_id"]) {
      expect(payload).toHaveProperty(key);
    }
    expect(payload).toMatchObject({ id, status: "rejected", description: "Con callback", urlCallback: callbackUrl });
    expect(Number.isInteger(payload.date) && Number.isInteger(payload.expire)).toBe(true);
    expect(payload.expire - payload.date).toBe(30 * 86400);
    const download = await fetch(payload.documents[0].url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(TINY_PDF());
  });

  it("an expired process becomes `expired` when read and calls back", async () => {
    const response = await admin.create({ signers: [signer()], urlCallback: callbackUrl, expire: "1" });
    const { id } = await response.json();
    const record = await waitFor(async () => {
      const body = await (await admin.list({ process_id: id })).json();
      return body.signatureProcesses[0].status === "expired" && body.signatureProcesses[0];
    });
    expect(record.status).toBe("expired");
    await callbackFor(id, "expired");
    expect((await admin.modify({ process_id: id, description: "tarde" })).status).toBe(403);
  });
});

describe("notifications without SMTP or WhatsApp settings", () => {
  it("keeps the e-mail and WhatsApp messages in the dev mailbox and marks the signers notified", async () => {
    const byEmail = signer({ contactInfo: { type: "email", value: "ana@example.com" } });
    const byWhatsapp = signer({ contactInfo: { type: "whatsapp", value: "+51999888777", tz: "-03:00" } });
    const silent = signer({ contactInfo: undefined });
    const response = await admin.create({ signers: [byEmail, byWhatsapp, silent], description: "Aviso" });
    const { id, msg } = await response.json();
    const record = await waitFor(async () => {
      const body = await (await admin.list({ process_id: id })).json();
      const p = body.signatureProcesses[0];
      return p.signers[0].contactInfo.notified && p.signers[1].contactInfo.notified && p;
    });
    expect(record.signers[2].contactInfo).toBeNull();
    await seeded.server.stop();
    await seeded.withDb(async (db) => {
      const mails = await db.select().from(devMailbox).where(eq(devMailbox.processId, id));
      expect(mails.map((m) => [m.channel, m.recipient]).sort()).toEqual([
        ["email", "ana@example.com"],
        ["whatsapp", "+51999888777"],
      ]);
      for (const mail of mails) {
        expect(mail.body).toContain(msg);
        expect(mail.body).toContain("Aviso");
      }
      expect(mails.find((m) => m.channel === "whatsapp")!.body).toContain("UTC-03:00");
      const callbacks = await db.select().from(outbox).where(eq(outbox.kind, "callback.deliver")).orderBy(desc(outbox.id));
      expect(callbacks.length).toBeGreaterThanOrEqual(2);
      expect(callbacks.every((c) => c.status === "done")).toBe(true);
      const attempts = await db.select().from(outboxAttempts).where(eq(outboxAttempts.outboxId, callbacks[0].id));
      expect(attempts).toMatchObject([{ attempt: 1, outcome: "delivered", detail: "HTTP 204" }]);
    });
  });
});
