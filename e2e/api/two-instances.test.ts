import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { organizations, outbox, stampTransactions } from "@/db/schema";
import { callbackSecretOf, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY } from "../fixtures/start-seeded-server";
import { createTestDatabase } from "../fixtures/postgres";
import { login, processApi, signer, waitFor } from "../fixtures/process-api-client";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { startWebhookReceiver, type WebhookReceiver } from "../fixtures/webhook-receiver";
import { validatePdf } from "../fixtures/independent-validators";

/**
 * Two server processes on one PostgreSQL, both serving both APIs and both running the dispatcher.
 * 200 requests alternate between them; one is SIGKILLed in the middle. A client whose request
 * fails on the dead instance retries it on the live one, as behind a load balancer. Every accepted
 * request must be done once, every callback must arrive (de-duplicated by webhook-id), nothing lost.
 */
const LONG = 300_000;
const onPostgres = process.env.TEST_DATABASE === "postgres";
const contract = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const stampSigner = { names: "Ana", last_names: "Dos Instancias", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  let databaseUrl = "";
  let instances: TestServer[] = [];
  let receiver: WebhookReceiver;
  let organizationId = "";

  const env = (name: string) => ({ DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY, INSTANCE_ID: name, OUTBOX_LEASE_SECONDS: "10", OUTBOX_RETRY_BASE_SECONDS: "1" });

  beforeAll(async () => {
    receiver = await startWebhookReceiver(() => standardWebhookSecret(callbackSecretOf(crypto.createHash("sha256").update(TEST_SECRET_KEY).digest(), organizationId, 1)));
    receiver.setMode("accept");
    databaseUrl = await createTestDatabase();
    // both start together: one migrates and bootstraps, the other waits on the advisory lock
    instances = await Promise.all([startTestServer({ env: env("a") }), startTestServer({ env: env("b") })]);
    const database = await openDatabase({ databaseUrl, dataDir: instances[0].dataDir });
    try {
      const [org] = await database.db.update(organizations).set({ allowPrivateCallbacks: true }).where(eq(organizations.domain, ORG_DOMAIN)).returning();
      organizationId = org.id;
    } finally {
      await database.close();
    }
  }, LONG);
  afterAll(async () => {
    await Promise.all(instances.map((s) => s.stop()));
    receiver?.close();
  });

  it("does every accepted request once and delivers every callback while one instance is SIGKILLed under 200 requests", async () => {
    const [a, b] = instances;
    const processTokens = await Promise.all(instances.map((s) => login(s.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_PASSWORD)));
    // one stamp token for both: a new login supersedes the user's previous token on every instance
    const stampToken = await new StampApiClient(a.baseUrl).login("v2");
    const stampClients = instances.map((s) => new StampApiClient(s.baseUrl, stampToken));
    let killed = false;
    let failedOver = 0;
    const alive = (i: number) => !(killed && i === 0);
    /** Sends to the chosen instance; a connection error there is retried on the other one. */
    async function send(i: number, call: (i: number) => Promise<Response>): Promise<Response> {
      const first = alive(i) ? i : 1;
      try {
        return await call(first);
      } catch (error) {
        if (first === 1) throw error;
        failedOver++;
        return call(1);
      }
    }

    const accepted = { processes: [] as string[], rejected: [] as string[], stamps: [] as string[] };
    let requests = 0;
    let refused = 0;
    const refusals: Record<string, number> = {};
    const refuse = (why: string) => {
      refused++;
      refusals[why] = (refusals[why] ?? 0) + 1;
    };
    // 200 requests: 70 process creations, 70 rejections of them, 60 async signatures, alternating instances
    const work: ((n: number) => Promise<void>)[] = [];
    for (let k = 0; k < 70; k++) {
      work.push(async (n) => {
        const response = await send(n % 2, (i) => processApi(instances[i].baseUrl, processTokens[i]).create({ signers: [signer({ contactInfo: undefined })], urlCallback: receiver.url }));
        requests++;
        if (response.status !== 201) return void refuse(`create ${response.status}`);
        const { id } = await response.json();
        accepted.processes.push(id);
        const rejection = await send((n + 1) % 2, (i) => processApi(instances[i].baseUrl, processTokens[i]).reject([id]));
        requests++;
        if (rejection.status === 200) accepted.rejected.push(id);
        else refuse(`reject ${rejection.status}`);
      });
    }
    for (let k = 0; k < 60; k++) {
      work.push(async (n) => {
        const txToken = `TwoInst${String(k).padStart(4, "0")}${crypto.randomBytes(5).toString("hex")}`.slice(0, 20);
        const response = await send(n % 2, (i) => stampClients[i].signPdf({ ...stampSigner, async: 1, tx_token: txToken }, { pdf: contract }));
        requests++;
        // 409: the first try reached the dead instance and was committed there before it died
        if (response.status === 200 || response.status === 409) accepted.stamps.push(txToken);
        else refuse(`signPDF ${response.status}`);
      });
    }
    work.sort(() => Math.random() - 0.5);

    let next = 0;
    const worker = async () => {
      while (next < work.length) {
        const n = next++;
        if (n === Math.floor(work.length / 3) && !killed) {
          killed = true;
          await a.kill(); // SIGKILL in the middle of the load: requests and jobs in flight on it are cut off
        }
        await work[n](n);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, worker));

    // every accepted stamp is signed once, by whichever instance; the dead one's claims come back after the lease
    const stamps = stampClients[1];
    for (const txToken of accepted.stamps) {
      await waitFor(async () => (await stamps.getSignedPdf(txToken)).status === 200, LONG);
    }
    // every accepted rejection calls back; the receiver de-duplicates by webhook-id
    await waitFor(async () => accepted.rejected.every((id) => receiver.eventFor(id)), LONG);

    const database = await openDatabase({ databaseUrl, dataDir: b.dataDir });
    try {
      const transactions = await database.db.select().from(stampTransactions).where(inArray(stampTransactions.txToken, accepted.stamps));
      expect(transactions.map((t) => t.status)).toEqual(accepted.stamps.map(() => "done"));
      const callbackJobs = await database.db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
      await waitFor(async () => {
        const rows = await database.db.select().from(outbox);
        return rows.every((r) => r.status === "done") || undefined;
      }, LONG);
      const duplicates = receiver.accepted.length - receiver.events.size;
      console.log(
        JSON.stringify({
          figures: "two instances, one SIGKILLed",
          requests,
          refused,
          refusals,
          failedOver,
          processesAccepted: accepted.processes.length,
          rejectionsAccepted: accepted.rejected.length,
          stampsAccepted: accepted.stamps.length,
          callbackJobs: callbackJobs.length,
          callbackPosts: receiver.posts.length,
          callbacksAccepted: receiver.accepted.length,
          distinctEvents: receiver.events.size,
          duplicates,
          lost: accepted.rejected.filter((id) => !receiver.eventFor(id)).length + transactions.filter((t) => t.status !== "done").length,
          seconds: Math.round((Date.now() - started) / 1000),
        }),
      );
      expect(requests).toBeGreaterThanOrEqual(200);
      expect(accepted.rejected.length + accepted.stamps.length).toBeGreaterThan(100);
      for (const id of accepted.rejected) expect(receiver.eventFor(id)).toMatchObject({ status: "rejected" });
      // a rejection cut off on the dead instance may have committed there: its callback arrives too
      expect([...receiver.events.values()].every((e) => accepted.processes.includes(e.processId))).toBe(true);
      expect(receiver.conflicts).toEqual([]);
      expect(receiver.posts.every((p) => p.verified)).toBe(true);
    } finally {
      await database.close();
    }
    const sample = await (await stamps.getSignedPdf(accepted.stamps[0])).json();
    const check = validatePdf(new Uint8Array(Buffer.from(sample.signed_pdf, "base64")), await stamps.caPem());
    expect(check.pass, check.output).toBe(true);
  }, 4 * LONG);
});
