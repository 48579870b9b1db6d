import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { posesOf, type Pose } from "../fixtures/scripted-camera";
import { SHARED_DIR } from "../fixtures/shared-dir";
import { signerHttp } from "../fixtures/signer-http-flow";

/**
 * The facial try over HTTP, without a registry photo: the ID document must be an identity card
 * bearing the signer's number, the movements come from a ticket issued when the capture starts,
 * and the answer never carries a score. OCR and face models run per try: generous limits.
 */
let seeded: SeededServer;
let admin: ProcessApi;
let poses: Record<Pose, Uint8Array>;
const CARD_PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";

beforeAll(async () => {
  // first: making the poses blocks this process, and a kept-alive socket would go stale meanwhile
  poses = Object.fromEntries(Object.entries(posesOf("A")).map(([pose, url]) => [pose, new Uint8Array(Buffer.from(url.split(",")[1], "base64"))])) as Record<Pose, Uint8Array>;
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  admin = processApi(seeded.server.baseUrl, await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET));
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
});

async function identifiedSigner() {
  const person = signer({ signChallenges: ["facial"] });
  const created = await admin.create({ signers: [person], description: "DNI como referencia" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return { person, flow };
}

/** The start pose, then 3 frames per asked movement, each showing what `poseFor` says. */
function framesFor(challenges: string[], poseFor: (challenge: string) => Pose): Uint8Array[] {
  return [poses.neutral, ...challenges.flatMap((challenge) => Array(3).fill(poses[poseFor(challenge)]))];
}

async function answerOf(response: Response) {
  const text = await response.text();
  expect(text).not.toMatch(/similarity|threshold|score|antispoof|challenge-|0\.\d{2,}/);
  return { status: response.status, body: JSON.parse(text) as { status?: string; reason?: string; attemptsLeft?: number; error?: string } };
}

describe("the ID document as the face reference", () => {
  it("a specimen card with the signer's number passes with a live stand-in doing the asked movements", async () => {
    const { person, flow } = await identifiedSigner();
    const { challenges, ticket } = await flow.startFacialTry();
    expect(challenges).toHaveLength(2);
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id });
    const answer = await answerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose), idDocument: card }));
    expect(answer).toMatchObject({ status: 200, body: { status: "passed" } });
  }, 240_000);

  it("refuses, without counting a try, a card with another number, a selfie, and a forged ticket", async () => {
    const { person, flow } = await identifiedSigner();
    const cases: [string, Uint8Array, string][] = [
      ["a card with another number", photographCard({ portrait: CARD_PORTRAIT, docNumber: String(Number(person.doc_id) + 1) }), "id_document_wrong_number"],
      ["a selfie as the ID document", new Uint8Array(fs.readFileSync(path.join(SHARED_DIR, "fixtures/faces/person-a-obama/a2-selfie-like-480x640.jpg"))), "id_document_not_a_card"],
    ];
    for (const [name, idDocument, reason] of cases) {
      // each upload spends its ticket, whatever the outcome: every try starts with a new one
      const { challenges, ticket } = await flow.startFacialTry();
      const answer = await answerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose), idDocument }));
      expect(answer, name).toMatchObject({ status: 200, body: { status: "retry", reason, attemptsLeft: 3 } });
    }
    const { challenges, ticket } = await flow.startFacialTry();
    const forged = await answerOf(await flow.facialTry({ ticket: `${ticket.slice(0, -4)}AAAA`, frames: framesFor(challenges, (c) => c as Pose), idDocument: photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id }) }));
    expect(forged).toMatchObject({ status: 400, body: { reason: "ticket_invalid" } });
    const withoutTicket = await fetch(`${seeded.server.baseUrl}/api/signer/${flow.token}/facial`, { method: "POST", headers: { cookie: flow.cookie() }, body: new FormData() });
    expect(withoutTicket.status).toBe(400);
  }, 300_000);

  it("a still photo and a photo whose nose is warped to fake a turn are judged not live, and count as tries", async () => {
    const { person, flow } = await identifiedSigner();
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id });
    const still = await flow.startFacialTry();
    expect(await answerOf(await flow.facialTry({ ticket: still.ticket, frames: framesFor(still.challenges, () => "still"), idDocument: card }))).toMatchObject({
      status: 200,
      body: { status: "failed", reason: "not_live", attemptsLeft: 2 },
    });
    const warped = await flow.startFacialTry();
    const warpedFrames = framesFor(warped.challenges, (c) => (c.startsWith("turn-") ? (`nose-warped-${c}` as Pose) : (c as Pose)));
    expect(await answerOf(await flow.facialTry({ ticket: warped.ticket, frames: warpedFrames, idDocument: card }))).toMatchObject({
      status: 200,
      body: { status: "failed", reason: "not_live", attemptsLeft: 1 },
    });
  }, 300_000);
});
