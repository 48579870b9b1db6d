import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { organizations, outbox, processes, stampTransactions } from "@/db/schema";
import { callbackSecretOf, standardWebhookSecret } from "@/lib/callbacks/callback-secret";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN, startTestServer, type TestServer } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY } from "../fixtures/start-seeded-server";
import { createTestDatabase } from "../fixtures/postgres";
import { login, processApi, signer, waitFor } from "../fixtures/process-api-client";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { startWebhookReceiver, type WebhookReceiver } from "../fixtures/webhook-receiver";
import { validatePdf } from "../fixtures/independent-validators";
import { signerHttp } from "../fixtures/signer-http-flow";

/**
 * Two server processes on one PostgreSQL, both serving both APIs and both running the dispatcher.
 * Over 200 requests alternate between them: process creations and rejections, async stamps, and
 * signers who identify, confirm their names, report pages and sign, each step on the other
 * instance than the step before. One instance is SIGKILLed in the middle. A client whose request
 * fails on the dead instance retries it on the live one, as behind a load balancer. Every accepted
 * request must be done once, every callback must arrive (de-duplicated by webhook-id), nothing lost.
 * The whole test shares one deadline: generous for a busy 2-core machine, but bounded.
 */
const BUDGET_MS = 15 * 60_000;
const onPostgres = process.env.TEST_DATABASE === "postgres";
const contract = fixture("pdfs/valid/libreoffice70-tiny.pdf");
const stampSigner = { names: "Ana", last_names: "Dos Instancias", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };
const REJECTED = 40;
const STAMPS = 40;
const SIGNED = 12;

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
  }, 5 * 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((s) => s.stop()));
    receiver?.close();
  });

  it("does every accepted request once, completes every signing and delivers every callback while one instance is SIGKILLed under 200 requests", async () => {
    const started = Date.now();
    const deadline = started + BUDGET_MS;
    const left = () => Math.max(5_000, deadline - Date.now());
    const [a, b] = instances;
    const processTokens = await Promise.all(instances.map((s) => login(s.baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET)));
    // one stamp token for both: a new login supersedes the user's previous token on every instance
    const stampToken = await new StampApiClient(a.baseUrl).login("v2");
    const stampClients = instances.map((s) => new StampApiClient(s.baseUrl, stampToken));
    const processClients = instances.map((s, i) => processApi(s.baseUrl, processTokens[i]));
    let killed = false;
    let killedAt = 0;
    let failedOver = 0;
    const alive = (i: number) => !(killed && i === 0);
    /** Runs on the chosen instance; a connection cut there (before or while answering) is retried on the other one. */
    async function send<T>(i: number, call: (i: number) => Promise<T>): Promise<T> {
      const first = alive(i) ? i : 1;
      try {
        return await call(first);
      } catch (error) {
        if (first === 1) throw error;
        failedOver++;
        return call(1);
      }
    }

    /** The whole answer, read inside `send`: a body cut off by the kill fails over like a refused connection. */
    const answer = async (response: Response) => {
      const text = await response.text();
      let body: { id?: string; msg?: string; reason?: string; signatureProcesses?: { documents: { id: string; pages: number }[] }[] } = {};
      try {
        body = JSON.parse(text);
      } catch {
        // plain-text answers (process API errors) carry no fields the test reads
      }
      return { status: response.status, body };
    };

    const accepted = { processes: [] as string[], rejected: [] as string[], stamps: [] as string[], signed: [] as string[] };
    let requests = 0;
    let refused = 0;
    const refusals: Record<string, number> = {};
    const refuse = (why: string) => {
      refused++;
      refusals[why] = (refusals[why] ?? 0) + 1;
    };

    const signerSteps = [0, 0];
    let signerFailovers = 0;
    /** One signer's whole flow; each step goes to the other instance than the step before. */
    async function signAs(link: string, person: { doc_id: string }, names: [string, string], documents: { id: string; pages: number }[], turn: number): Promise<boolean> {
      const fail = (why: string) => (refuse(why), false);
      let current = 0;
      const flow = signerHttp(() => instances[current].baseUrl, link);
      const step = async <T>(call: () => Promise<T>) => {
        requests++;
        let tries = 0;
        const result = await send(turn++ % 2, (i) => (tries++, signerSteps[i]++, (current = i), call()));
        if (tries > 1) signerFailovers++;
        return result;
      };
      const identified = await step(async () => answer(await flow.identify(person.doc_id)));
      if (identified.status !== 200) return fail(`identify ${identified.status}`);
      const confirmed = await step(async () => answer(await flow.confirmNames(...names)));
      if (confirmed.status !== 200) return fail(`names ${confirmed.status}`);
      await step(() => flow.showEveryPage(documents));
      let tries = 0;
      const signed = await step(async () => (tries++, answer(await flow.sign())));
      if (signed.status === 200) return true;
      const reason = signed.body.reason;
      // a sign cut off by the kill may have committed on the dead instance: its retry is then told so
      if (tries > 1 && (reason === "already_signed" || reason === "process_completed")) return true;
      return fail(`sign ${signed.status} ${reason}`);
    }

    // work items alternate instances: create+reject, async stamps, and two-signer processes signed to the end
    const work: ((n: number) => Promise<void>)[] = [];
    /** where each item goes in the run: every kind spread evenly over it, slightly jittered */
    const places: number[] = [];
    for (let k = 0; k < REJECTED; k++) {
      places.push(k / REJECTED + Math.random() * 0.01);
      work.push(async (n) => {
        const response = await send(n % 2, async (i) => answer(await processClients[i].create({ signers: [signer({ contactInfo: undefined })], urlCallback: receiver.url })));
        requests++;
        if (response.status !== 201) return void refuse(`create ${response.status}`);
        const id = response.body.id!;
        accepted.processes.push(id);
        const rejection = await send((n + 1) % 2, async (i) => answer(await processClients[i].reject([id])));
        requests++;
        if (rejection.status === 200) accepted.rejected.push(id);
        else refuse(`reject ${rejection.status}`);
      });
    }
    for (let k = 0; k < STAMPS; k++) {
      places.push(k / STAMPS + Math.random() * 0.01);
      work.push(async (n) => {
        const txToken = `TwoInst${String(k).padStart(4, "0")}${crypto.randomBytes(5).toString("hex")}`.slice(0, 20);
        const response = await send(n % 2, async (i) => answer(await stampClients[i].signPdf({ ...stampSigner, async: 1, tx_token: txToken }, { pdf: contract })));
        requests++;
        // 409: the first try reached the dead instance and was committed there before it died
        if (response.status === 200 || response.status === 409) accepted.stamps.push(txToken);
        else refuse(`signPDF ${response.status}`);
      });
    }
    for (let k = 0; k < SIGNED; k++) {
      places.push(k / SIGNED + Math.random() * 0.01);
      work.push(async (n) => {
        const people = [signer({ signChallenges: [], contactInfo: undefined }), signer({ signChallenges: [], contactInfo: undefined })];
        const response = await send(n % 2, async (i) => answer(await processClients[i].create({ signers: people, urlCallback: receiver.url, description: `Dos instancias ${k}` })));
        requests++;
        if (response.status !== 201) return void refuse(`create ${response.status}`);
        const { id, msg: link } = response.body as { id: string; msg: string };
        accepted.processes.push(id);
        const listed = await send((n + 1) % 2, async (i) => answer(await processClients[i].list({ process_id: id })));
        requests++;
        if (listed.status !== 200) return void refuse(`list ${listed.status}`);
        const { documents } = listed.body.signatureProcesses![0];
        // one after the other: signing the same file at once is refused with document_changed (409)
        for (const [p, person] of people.entries()) {
          if (!(await signAs(link, person, [["Rosa Elena", "Luis Alberto"][p], `Quispe ${["Mamani", "Huamán", "Condori", "Flores"][k % 4]}`], documents, n + p))) return;
        }
        accepted.signed.push(id);
      });
    }
    const order = work.map((_, j) => j).sort((x, y) => places[x] - places[y]);

    let next = 0;
    const worker = async () => {
      while (next < work.length) {
        const n = next++;
        // once a third of the signings completed across both instances (two thirds into the work at
        // the latest): signer flows have run on both, and those in flight are cut off
        if (!killed && (accepted.signed.length >= SIGNED / 3 || n >= (2 * work.length) / 3)) {
          killed = true;
          killedAt = n;
          await a.kill(); // SIGKILL in the middle of the load: requests and jobs in flight on it are cut off
        }
        await work[order[n]](n);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const loadSeconds = Math.round((Date.now() - started) / 1000);

    // every accepted stamp is signed once, by whichever instance; the dead one's claims come back after the lease
    const stamps = stampClients[1];
    for (const txToken of accepted.stamps) {
      await waitFor(async () => (await stamps.getSignedPdf(txToken)).status === 200, left());
    }
    // every accepted rejection and signing calls back; the receiver de-duplicates by webhook-id
    const concluded = [...accepted.rejected, ...accepted.signed];
    await waitFor(async () => concluded.every((id) => receiver.eventFor(id)), left());

    const database = await openDatabase({ databaseUrl, dataDir: b.dataDir });
    try {
      const transactions = await database.db.select().from(stampTransactions).where(inArray(stampTransactions.txToken, accepted.stamps));
      expect(transactions.map((t) => t.status)).toEqual(accepted.stamps.map(() => "done"));
      const signedRows = accepted.signed.length ? await database.db.select().from(processes).where(inArray(processes.id, accepted.signed)) : [];
      await waitFor(async () => {
        const rows = await database.db.select().from(outbox);
        return rows.every((r) => r.status === "done") || undefined;
      }, left());
      const callbackJobs = await database.db.select().from(outbox).where(eq(outbox.kind, "callback.deliver"));
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
          processesSigned: accepted.signed.length,
          killedAtItem: `${killedAt}/${work.length}`,
          signerStepsOnAB: signerSteps,
          signerFailovers,
          padesLevels: Object.fromEntries([...new Set(signedRows.map((r) => r.padesLevel))].map((l) => [l, signedRows.filter((r) => r.padesLevel === l).length])),
          callbackJobs: callbackJobs.length,
          callbackPosts: receiver.posts.length,
          callbacksAccepted: receiver.accepted.length,
          distinctEvents: receiver.events.size,
          duplicates,
          lost: concluded.filter((id) => !receiver.eventFor(id)).length + transactions.filter((t) => t.status !== "done").length,
          loadSeconds,
          seconds: Math.round((Date.now() - started) / 1000),
        }),
      );
      expect(requests).toBeGreaterThanOrEqual(200);
      expect(accepted.rejected.length + accepted.stamps.length).toBeGreaterThan(60);
      // a signer cut off on the dead instance goes on on the live one: every signing completes
      expect(accepted.signed).toHaveLength(SIGNED);
      expect(signerSteps[0], "signer steps on the instance that is killed").toBeGreaterThan(0);
      expect(signedRows.map((r) => [r.status, r.padesLevel])).toEqual(accepted.signed.map(() => ["signed", "B-LTA"]));
      for (const id of accepted.rejected) expect(receiver.eventFor(id)).toMatchObject({ status: "rejected" });
      for (const id of accepted.signed) expect(receiver.eventFor(id)).toMatchObject({ status: "signed" });
      // a rejection cut off on the dead instance may have committed there: its callback arrives too
      expect([...receiver.events.values()].every((e) => accepted.processes.includes(e.processId))).toBe(true);
      // one event per process (each is concluded once), whatever the number of deliveries
      expect(new Set([...receiver.events.values()].map((e) => e.processId)).size).toBe(receiver.events.size);
      expect(receiver.conflicts).toEqual([]);
      expect(receiver.posts.every((p) => p.verified)).toBe(true);
    } finally {
      await database.close();
    }
    const caPem = await stamps.caPem();
    const sample = await (await stamps.getSignedPdf(accepted.stamps[0])).json();
    const check = validatePdf(new Uint8Array(Buffer.from(sample.signed_pdf, "base64")), caPem);
    expect(check.pass, check.output).toBe(true);
    // a process signed across both instances: two signatures and the document time stamp, valid independently
    const [signedProcess] = (await (await processClients[1].list({ process_id: accepted.signed[0] })).json()).signatureProcesses;
    const document = new Uint8Array(await (await fetch(signedProcess.documents[0].url)).arrayBuffer());
    const signedCheck = validatePdf(document, caPem);
    expect(signedCheck.pass, signedCheck.output).toBe(true);
    expect(signedCheck.signatures).toBeGreaterThanOrEqual(2);
  }, BUDGET_MS + 60_000);
});
