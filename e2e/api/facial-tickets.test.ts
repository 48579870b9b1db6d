import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { fixturePath } from "../../test/fixtures-dir";

/**
 * Ticket hygiene over HTTP: a facial ticket is spent by the first frames upload that carries it,
 * at most 6 tickets per signer per 10 minutes, at most 10 uncounted retries per signer per hour.
 * The uncounted retry used here is the cheapest one the server knows (no ID photo sent where one
 * is needed): it is refused before any face model runs, so these tests cost no face analysis.
 */
const face = new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a2-selfie-like-480x640.jpg")));
const frames = Array<Uint8Array>(7).fill(face);

async function identifiedSigner(seeded: SeededServer) {
  const { shared } = seeded.orgs;
  const admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
  const person = signer({ signChallenges: ["facial"] });
  const created = await admin.create({ signers: [person], description: "tickets" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return flow;
}

const challenge = (flow: ReturnType<typeof signerHttp>, seeded: SeededServer) =>
  fetch(`${seeded.server.baseUrl}/api/signer/${flow.token}/facial/challenge`, { method: "POST", headers: { cookie: flow.cookie() } });
const bodyOf = async (response: Response) => ({ status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> });

describe("facial tickets with the default limits", () => {
  let seeded: SeededServer;
  beforeAll(async () => {
    seeded = await startSeededServer();
  }, 300_000);
  afterAll(async () => {
    await seeded?.server.stop();
  });

  it("a ticket works once: a reused ticket is refused (409) and counts neither as a try nor as a retry", async () => {
    const flow = await identifiedSigner(seeded);
    const { ticket } = await flow.startFacialTry();
    expect(await bodyOf(await flow.facialTry({ ticket, frames }))).toMatchObject({ status: 200, body: { status: "retry", reason: "id_document_required", attemptsLeft: 3 } });
    const reused = await bodyOf(await flow.facialTry({ ticket, frames }));
    expect(reused).toMatchObject({ status: 409, body: { success: false, reason: "ticket_used" } });
    expect(String(reused.body.message)).toMatch(/ya se usó/);
    // parallel uploads with one fresh ticket: exactly one is looked at
    const fresh = await flow.startFacialTry();
    const answers = await Promise.all(Array.from({ length: 4 }, () => flow.facialTry({ ticket: fresh.ticket, frames }).then(bodyOf)));
    expect(answers.filter((a) => a.status === 200 && a.body.status === "retry")).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.reason === "ticket_used")).toHaveLength(3);
    // nothing was counted: the next try still has all three
    const next = await flow.startFacialTry();
    expect(await bodyOf(await flow.facialTry({ ticket: next.ticket, frames }))).toMatchObject({ status: 200, body: { attemptsLeft: 3 } });
    // a ticket that is not ours is refused as invalid, naming the field
    expect(await bodyOf(await flow.facialTry({ ticket: `${ticket.slice(0, -4)}AAAA`, frames }))).toMatchObject({ status: 400, body: { reason: "ticket_invalid" } });
  }, 120_000);

  it("the 7th ticket within 10 minutes answers 429 with Retry-After and a Spanish message; another signer is not affected", async () => {
    const flow = await identifiedSigner(seeded);
    for (let i = 0; i < 6; i++) expect((await challenge(flow, seeded)).status, `ticket ${i + 1}`).toBe(200);
    const seventh = await bodyOf(await challenge(flow, seeded));
    expect(seventh).toMatchObject({ status: 429, body: { success: false, reason: "too_many_tickets" } });
    expect(String(seventh.body.message)).toMatch(/demasiados intentos/i);
    expect(Number(seventh.retryAfter)).toBeGreaterThan(0);
    expect(Number(seventh.retryAfter)).toBeLessThanOrEqual(600);
    const other = await identifiedSigner(seeded);
    expect((await challenge(other, seeded)).status).toBe(200);
  }, 120_000);

  it("10 parallel ticket requests of one signer: exactly 6 get a ticket", async () => {
    const flow = await identifiedSigner(seeded);
    const statuses = await Promise.all(Array.from({ length: 10 }, () => challenge(flow, seeded).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
  }, 120_000);
});

describe("uncounted retries per hour", () => {
  let seeded: SeededServer;
  beforeAll(async () => {
    // more tickets per 10 minutes, so that the retry limit (10 an hour) is reached first
    seeded = await startSeededServer({ env: { FACIAL_TICKET_LIMIT: "30" } });
  }, 300_000);
  afterAll(async () => {
    await seeded?.server.stop();
  });

  it("the 11th uncounted retry in an hour answers 429 with Retry-After; then no new ticket either", async () => {
    const flow = await identifiedSigner(seeded);
    for (let i = 0; i < 9; i++) {
      const { ticket } = await flow.startFacialTry();
      expect(await bodyOf(await flow.facialTry({ ticket, frames })), `retry ${i + 1}`).toMatchObject({ status: 200, body: { status: "retry", attemptsLeft: 3 } });
    }
    const tenth = await flow.startFacialTry();
    const eleventh = await flow.startFacialTry();
    expect(await bodyOf(await flow.facialTry({ ticket: tenth.ticket, frames }))).toMatchObject({ status: 200, body: { status: "retry" } });
    const refused = await bodyOf(await flow.facialTry({ ticket: eleventh.ticket, frames }));
    expect(refused).toMatchObject({ status: 429, body: { success: false, reason: "too_many_retries" } });
    expect(String(refused.body.message)).toMatch(/última hora/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    expect(await bodyOf(await challenge(flow, seeded))).toMatchObject({ status: 429, body: { reason: "too_many_retries" } });
  }, 180_000);
});
