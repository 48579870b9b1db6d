import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { signerHttp } from "../fixtures/signer-http-flow";
import { poseBytesOf, type Pose } from "../fixtures/scripted-camera";
import { fixturePath } from "../../test/fixtures-dir";

/**
 * The ID card photo the signer page sends when a capture starts (POST facial/id-document), read
 * while the signer makes the movements. It only saves time: a try is judged on the photo it uploads.
 */
let seeded: SeededServer;
let poses: Record<Pose, Uint8Array>;
const CARD_PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";
// fixed numbers, so each card is the same image in every run (facial-id-document.test.ts uses others)
const people = { ahead: "58321470", swapped: "58321471", refusals: "58321472" };
const cardOf = (docNumber: string) => photographCard({ portrait: CARD_PORTRAIT, docNumber, unmarked: true });

beforeAll(async () => {
  // ImageMagick and the poses block this process: before the server and its sockets
  for (const docNumber of Object.values(people)) cardOf(docNumber);
  cardOf(String(Number(people.swapped) + 100));
  poses = poseBytesOf("A");
  seeded = await startSeededServer();
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
});

const framesFor = (challenges: string[]) => [poses.neutral, ...challenges.flatMap((c) => Array<Uint8Array>(3).fill(poses[c as Pose]))];
const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> });

/** A signer without a registry photo (the ID card is the reference), identified, names confirmed. */
async function signerWithoutRegistryPhoto(docId: string) {
  const { shared } = seeded.orgs;
  const token = await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET);
  const person = signer({ signChallenges: ["facial"], doc_id: docId });
  const created = await processApi(seeded.server.baseUrl, token).create({ signers: [person], description: "DNI enviado antes" });
  expect(created.status, await created.clone().text()).toBe(201);
  const flow = signerHttp(seeded.server.baseUrl, ((await created.json()) as { msg: string }).msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
  return flow;
}

describe("the ID card sent when the capture starts", () => {
  it("is taken without a word about the card; the try that uploads it gets the card's verdict (review)", async () => {
    const flow = await signerWithoutRegistryPhoto(people.ahead);
    const { challenges, ticket } = await flow.startFacialTry();
    const card = cardOf(people.ahead);
    expect(await answer(await flow.idDocumentAhead({ ticket, idDocument: card }))).toEqual({ status: 200, body: { success: true, received: true } });
    expect(await answer(await flow.facialTry({ ticket, frames: framesFor(challenges), idDocument: card }))).toMatchObject({ status: 200, body: { status: "under_review" } });
  }, 300_000);

  it("decides nothing: the try is judged on the card it uploads, whichever was sent ahead", async () => {
    const flow = await signerWithoutRegistryPhoto(people.swapped);
    // the signer's own card ahead, another number's card uploaded: refused as that card, no try counted
    const first = await flow.startFacialTry();
    expect((await flow.idDocumentAhead({ ticket: first.ticket, idDocument: cardOf(people.swapped) })).status).toBe(200);
    const wrong = cardOf(String(Number(people.swapped) + 100));
    expect(await answer(await flow.facialTry({ ticket: first.ticket, frames: framesFor(first.challenges), idDocument: wrong }))).toMatchObject({ status: 200, body: { status: "retry", reason: "id_document_wrong_number" } });
    // the other number's card ahead does not spoil the signer's own card uploaded (this is the first try counted)
    const second = await flow.startFacialTry();
    expect((await flow.idDocumentAhead({ ticket: second.ticket, idDocument: wrong })).status).toBe(200);
    expect(await answer(await flow.facialTry({ ticket: second.ticket, frames: framesFor(second.challenges), idDocument: cardOf(people.swapped) }))).toMatchObject({ status: 200, body: { status: "under_review", attemptsLeft: 2 } });
  }, 300_000);

  it("refuses a forged ticket, what is not an image, a third card per ticket, and a request without the signer's session", async () => {
    const flow = await signerWithoutRegistryPhoto(people.refusals);
    const { ticket } = await flow.startFacialTry();
    const card = cardOf(people.refusals);
    expect(await answer(await flow.idDocumentAhead({ ticket: `${ticket.slice(0, -4)}AAAA`, idDocument: card }))).toMatchObject({ status: 400, body: { success: false, reason: "ticket_invalid" } });
    expect(await answer(await flow.idDocumentAhead({ ticket, idDocument: new TextEncoder().encode("not a photo") }))).toMatchObject({ status: 400, body: { success: false } });
    const noFace = new Uint8Array(fs.readFileSync(fixturePath("faces/no-face/no-face-chandelier-480x640.jpg")));
    for (const idDocument of [card, noFace]) expect((await flow.idDocumentAhead({ ticket, idDocument })).status).toBe(200);
    expect(await answer(await flow.idDocumentAhead({ ticket, idDocument: card }))).toMatchObject({ status: 429, body: { reason: "too_many_frames" } });
    const form = new FormData();
    form.append("ticket", ticket);
    form.append("idDocument", new Blob([Buffer.from(card)], { type: "image/jpeg" }), "dni.jpg");
    const withoutSession = await fetch(`${seeded.server.baseUrl}/api/signer/${flow.token}/facial/id-document`, { method: "POST", body: form });
    expect(withoutSession.status).toBe(401);
  }, 300_000);
});
