import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { outbox, stampTransactions } from "@/db/schema";
import { startTestServer, type TestServer } from "../fixtures/start-test-server";
import { TEST_SECRET_KEY } from "../fixtures/start-seeded-server";
import { waitFor } from "../fixtures/process-api-client";
import { StampApiClient, fixture } from "../fixtures/stamp-api-client";
import { startControllableTsa } from "../fixtures/controllable-tsa";
import { pdfDamagedBeyondItsPages } from "../fixtures/late-damage-pdf";
import { qpdfCheck, validatePdf } from "../fixtures/independent-validators";

/**
 * Async signPDF against an external TSA that fails: a transient failure (HTTP 503) is retried with
 * the outbox backoff until it succeeds; a document that is only found broken while signing fails
 * at once, with the reason in getSignedPDF. Every wait is on a condition; backoff is checked as a
 * lower bound only (a slow machine makes gaps longer, never shorter).
 */
const LONG = 180_000;
const RETRY_BASE_SECONDS = 1;
const contract = fixture("pdfs/valid/libreoffice74-contrato-a4.pdf");
const portrait = fixture("images/portrait-413x531.jpg");
const stampSigner = { names: "Ana", last_names: "Reintentos", person_id: "12345678", nationality: "PER", person_id_type: "DNI" };

let server: TestServer;
let api: StampApiClient;
let tsa: Awaited<ReturnType<typeof startControllableTsa>>;
let env: Record<string, string> = {};

beforeAll(async () => {
  tsa = await startControllableTsa(() => server.baseUrl);
  env = { SECRET_KEY: TEST_SECRET_KEY, OUTBOX_RETRY_BASE_SECONDS: String(RETRY_BASE_SECONDS), INSTANCE_ID: "retry-test", TSA_URL: tsa.url };
  server = await startTestServer({ env });
  api = new StampApiClient(server.baseUrl);
  await api.login("v2");
}, LONG);
afterAll(async () => {
  await server?.stop();
  tsa?.close();
});

/** Waits until getSignedPDF stops answering 202 (pending) and returns that answer. */
async function finalAnswer(txToken: string): Promise<{ status: number; body: { message?: string; signed_pdf?: string } }> {
  const response = await waitFor(async () => {
    const r = await api.getSignedPdf(txToken);
    return r.status !== 202 && r;
  }, LONG);
  return { status: response.status, body: await response.json() };
}

/** The outbox row of a transaction's job. The embedded database has one owner, so the server is stopped to read it and started again. */
async function stampJobOf(txToken: string) {
  await server.stop();
  const database = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: server.dataDir });
  try {
    const [transaction] = await database.db.select().from(stampTransactions).where(eq(stampTransactions.txToken, txToken));
    const jobs = await database.db.select().from(outbox).where(eq(outbox.kind, "stamp.sign"));
    return jobs.filter((j) => j.payload.transactionId === transaction.id);
  } finally {
    await database.close();
    server = await startTestServer({ dataDir: server.dataDir, env: { ...env, ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}) } });
    api = new StampApiClient(server.baseUrl, api.token);
  }
}

describe("async signPDF and a failing TSA", () => {
  it("retries a TSA that answers 503 twice, with backoff, and finishes done with a valid PDF", async () => {
    const before = tsa.requests();
    tsa.setMode({ kind: "fail", times: 2 });
    const accepted = await (await api.signPdf({ ...stampSigner, async: 1 }, { pdf: contract })).json();
    expect(accepted).toMatchObject({ success: true });

    const answer = await finalAnswer(accepted.tx_token);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const pdf = new Uint8Array(Buffer.from(answer.body.signed_pdf!, "base64"));
    const check = validatePdf(pdf, await api.caPem());
    expect(check.pass, check.output).toBe(true);
    expect(check.signatures).toBe(1);
    const structure = qpdfCheck(pdf);
    expect(structure.ok, structure.output).toBe(true);

    // one TSA request per attempt: two refused, the third answered
    const arrivals = tsa.arrivals().slice(before);
    expect(arrivals).toHaveLength(3);
    // each retry waited at least its backoff (base, then twice the base) after the failure before it
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(RETRY_BASE_SECONDS * 1000 - 50);
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(2 * RETRY_BASE_SECONDS * 1000 - 50);
    const [job] = await stampJobOf(accepted.tx_token);
    expect(job).toMatchObject({ status: "done", attempts: 3, maxAttempts: 3 });
    expect(job.lastError).toMatch(/503/);
  }, 2 * LONG);

  it("gives up after three attempts when the TSA keeps failing, and says so in getSignedPDF", async () => {
    const before = tsa.requests();
    tsa.setMode({ kind: "fail" });
    const accepted = await (await api.signPdf({ ...stampSigner, async: 1 }, { pdf: contract })).json();
    expect(accepted).toMatchObject({ success: true });

    const answer = await finalAnswer(accepted.tx_token);
    expect(answer.status).toBe(422);
    // the reason survives the worker pool: the integrator reads that the TSA failed, not a generic error
    expect(answer.body.message).toBe("No se pudo obtener el sello de tiempo de la TSA. (3 intentos)");
    expect(tsa.requests() - before).toBe(3);
    tsa.setMode({ kind: "forward" });
    const [job] = await stampJobOf(accepted.tx_token);
    expect(job).toMatchObject({ status: "dead", attempts: 3 });
  }, 2 * LONG);

  it("fails a document found broken only while signing at once (one attempt), with the reason in getSignedPDF", async () => {
    tsa.setMode({ kind: "forward" });
    const before = tsa.requests();
    const broken = pdfDamagedBeyondItsPages();
    const accepted = await (await api.signPdf({ ...stampSigner, async: 1 }, { pdf: broken })).json();
    // the pages read cleanly, so the request is accepted; the damage lies where the signature goes
    expect(accepted).toMatchObject({ success: true });

    const answer = await finalAnswer(accepted.tx_token);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe("El archivo no es un PDF válido o está dañado.");
    // refused before any time-stamp was asked for
    expect(tsa.requests()).toBe(before);
    const jobs = await stampJobOf(accepted.tx_token);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: "dead", attempts: 1, lastError: "El archivo no es un PDF válido o está dañado." });
  }, 2 * LONG);

  it("records a signPDF signed now whose TSA fails as failed, with the reason in getSignedPDF, and keeps its tx_token taken", async () => {
    tsa.setMode({ kind: "fail" });
    const txToken = "SyncTsaFailure000001";
    const refused = await api.signPdf({ ...stampSigner, tx_token: txToken }, { pdf: contract });
    expect(refused.ok).toBe(false);
    expect((await refused.json()).success).toBe(false);
    // written failed only after the document passed its checks and its time-stamp was refused
    const answer = await finalAnswer(txToken);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe("No se pudo obtener el sello de tiempo de la TSA.");
    tsa.setMode({ kind: "forward" });
    const again = await api.signPdf({ ...stampSigner, tx_token: txToken }, { pdf: contract });
    expect(again.status).toBe(409);
    // a document refused by its checks takes no tx_token: the same token signs afterwards
    const unchecked = "SyncRefusedDoc000001";
    expect((await api.signPdf({ ...stampSigner, tx_token: unchecked, page: 99, position_x: 10, position_y: 10 }, { pdf: contract, image: portrait })).status).toBe(400);
    expect((await api.signPdf({ ...stampSigner, tx_token: unchecked }, { pdf: contract })).status).toBe(200);
  }, LONG);
});
