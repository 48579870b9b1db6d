import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCallbackCollector, type CallbackCollector } from "../fixtures/callback-collector";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { fixturePath } from "../../test/fixtures-dir";
import { identityLevelPolicyOids } from "@/lib/identity-assurance/identity-level";
import { ADMIN_API_SECRET, ADMIN_EMAIL, ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { staffCookie } from "../fixtures/staff-cookie";
import { facePhoto, uploadRegistryPhoto } from "../fixtures/signer-documents";
import { SECRET, startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { callServerAction } from "../fixtures/server-action";
import { firstSignatureCertificatesText, validatePdf } from "../fixtures/independent-validators";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { poseBytesOf, type Pose } from "../fixtures/scripted-camera";
import { signerHttp } from "../fixtures/signer-http-flow";
import { facialAnswerOf, framesFor as framesOf } from "../fixtures/facial-answers";

/**
 * The facial try over HTTP, without a registry photo: the ID document must be a current, non-sample
 * identity card bearing the signer's number, the movements come from a ticket issued when the
 * capture starts, and the answer never carries a score. A match on such a self-supplied card never
 * signs before staff review (issue 25). OCR and face models run per try: generous limits.
 */
let seeded: SeededServer;
let admin: ProcessApi;
let poses: Record<Pose, Uint8Array>;
let staff: string;
let adminToken: string;
let receiver: CallbackCollector<WireProcess & { id: string }>;
let callbackUrl = "";
const CARD_PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";
// fixed numbers, so each card is the same image in every run: OCR results then do not vary with the clock
const people = {
  approved: signer({ signChallenges: ["facial"], doc_id: "42427457" }),
  rejected: signer({ signChallenges: ["facial"], doc_id: "71644607" }),
  refusals: signer({ signChallenges: ["facial"], doc_id: "36034877" }),
  notLive: signer({ signChallenges: ["facial"], doc_id: "62658652" }),
  // in per-signer.test, whose owner switches review off
  unreviewed: signer({ signChallenges: ["facial"], doc_id: "95252597" }),
};

/** Every card the tests send, drawn before the server starts (ImageMagick blocks this process; a kept-alive socket would go stale meanwhile); later calls read the cache. */
function drawCards() {
  photographCard({ portrait: CARD_PORTRAIT, docNumber: people.approved.doc_id });
  for (const person of Object.values(people)) photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
  photographCard({ portrait: CARD_PORTRAIT, docNumber: String(Number(people.refusals.doc_id) + 1), unmarked: true });
  photographCard({ portrait: CARD_PORTRAIT, docNumber: people.refusals.doc_id, unmarked: true, expiry: "200101" });
}

beforeAll(async () => {
  // first: making the poses blocks this process, and a kept-alive socket would go stale meanwhile
  drawCards();
  poses = poseBytesOf("A");
  receiver = await startCallbackCollector<WireProcess & { id: string }>();
  callbackUrl = receiver.url;
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  adminToken = await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET);
  admin = processApi(seeded.server.baseUrl, adminToken);
  staff = await staffCookie(seeded.server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
}, 300_000);
afterAll(async () => {
  await seeded?.server.stop();
  receiver?.close();
});

async function identifiedSigner(person: ReturnType<typeof signer>, extra: Record<string, unknown> = {}) {
  const created = await admin.create({ signers: [person], description: "DNI como referencia", ...extra });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id, msg } = (await created.json()) as { id: string; msg: string };
  const flow = signerHttp(seeded.server.baseUrl, msg);
  expect((await flow.identify(person.doc_id)).status).toBe(200);
  return { person, flow, id };
}

type WireProcess = { status: string; documents: { id: string; pages: number; url: string }[]; signers: { sign_data: Record<string, unknown> & { identity?: unknown; result?: string } }[] };

async function processRecord(id: string, api: ProcessApi = admin): Promise<WireProcess> {
  const body = (await (await api.list({ process_id: id })).json()) as { signatureProcesses: WireProcess[] };
  return body.signatureProcesses[0];
}

/** The review queue's buttons, through the dashboard's JSON route with a staff session. */
async function decide(reviewId: string, body: Record<string, unknown>) {
  const response = await fetch(`${seeded.server.baseUrl}/api/dashboard/identity-reviews/${reviewId}`, { method: "POST", headers: { cookie: staff, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const framesFor = (challenges: string[], poseFor: (challenge: string) => Pose) => framesOf(poses, challenges, poseFor);

describe("the ID document as the face reference", () => {
  it("a made-up card with another person's face and the signer's number never signs without review; approval signs at level document-reviewed, in sign_data and the callback", async () => {
    const { person, flow, id } = await identifiedSigner(people.approved, { urlCallback: callbackUrl });
    expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
    const first = await flow.startFacialTry();
    const frames = framesFor(first.challenges, (c) => c as Pose);
    // the card printed ESPECIMEN (the old test's card) is refused outright, without counting a try
    const specimen = await facialAnswerOf(await flow.facialTry({ ticket: first.ticket, frames, idDocument: photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id }) }));
    expect(specimen).toMatchObject({ status: 200, body: { status: "retry", reason: "id_document_specimen", attemptsLeft: 3 } });
    // the same card without the mark, as an attacker would draw it: the face matches, and the signer waits for review
    const second = await flow.startFacialTry();
    const drawn = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
    const matched = await facialAnswerOf(await flow.facialTry({ ticket: second.ticket, frames: framesFor(second.challenges, (c) => c as Pose), idDocument: drawn }));
    expect(matched).toMatchObject({ status: 200, body: { status: "under_review", attemptsLeft: 2 } });
    // nothing the signer does signs: another try is refused, "Firmar" only records the request
    const third = await flow.startFacialTry();
    const again = await flow.facialTry({ ticket: third.ticket, frames: framesFor(third.challenges, (c) => c as Pose), idDocument: drawn });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ reason: "identity_under_review" });
    const record = await processRecord(id);
    await flow.showEveryPage(record.documents);
    const asked = await flow.sign();
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect(await asked.json()).toMatchObject({ underReview: true, completed: false });
    const waiting = await processRecord(id);
    expect(waiting.status).toBe("pending");
    expect(waiting.signers[0].sign_data).not.toHaveProperty("identity");
    expect(waiting.signers[0].sign_data.result).toBeUndefined();

    // the reviewer sees the card as read and the names that differ from the MRZ, then approves
    const reviews = (await (await fetch(`${seeded.server.baseUrl}/api/dashboard/identity-reviews`, { headers: { cookie: staff } })).json()) as { reviews: { id: string; signer: { docId: string }; card: { numberSource: string }; nameDifferences: string[]; signRequestedAt: string | null }[] };
    const review = reviews.reviews.find((r) => r.signer.docId === person.doc_id)!;
    expect(review).toMatchObject({ card: { numberSource: "mrz" } });
    expect(review.signRequestedAt).not.toBeNull();
    for (const picture of ["card", "portrait", "selfie"]) {
      const image = await fetch(`${seeded.server.baseUrl}/api/dashboard/identity-reviews/${review.id}/${picture}`, { headers: { cookie: staff } });
      expect(image.status, picture).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).subarray(0, 2).toString("hex"), picture).toBe("ffd8");
    }
    // without the session, nothing
    expect((await fetch(`${seeded.server.baseUrl}/api/dashboard/identity-reviews/${review.id}/card`)).status).toBe(401);
    const approved = await decide(review.id, { decision: "approve" });
    expect(approved).toMatchObject({ status: 200, body: { signing: true } });
    expect((await decide(review.id, { decision: "approve" })).status).toBe(409);

    const signed = await waitFor(async () => {
      const current = await processRecord(id);
      return current.status === "signed" && current;
    }, 120_000);
    expect(signed.signers[0].sign_data.identity).toMatchObject({ level: "document-reviewed", method: "id-document", reviewedBy: ADMIN_EMAIL });
    const callback = await waitFor(async () => receiver.received.find((body) => body.id === id && body.status === "signed"), 60_000);
    expect(callback.signers[0].sign_data.identity).toMatchObject({ level: "document-reviewed", method: "id-document", reviewedBy: ADMIN_EMAIL });
  }, 420_000);

  it("a rejected review counts as a failed try and the signer may try again", async () => {
    const { person, flow } = await identifiedSigner(people.rejected);
    expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
    const { challenges, ticket } = await flow.startFacialTry();
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
    expect(await facialAnswerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose), idDocument: card }))).toMatchObject({ body: { status: "under_review", attemptsLeft: 2 } });
    const reviews = (await (await fetch(`${seeded.server.baseUrl}/api/dashboard/identity-reviews`, { headers: { cookie: staff } })).json()) as { reviews: { id: string; signer: { docId: string } }[] };
    const review = reviews.reviews.find((r) => r.signer.docId === person.doc_id)!;
    expect((await decide(review.id, { decision: "reject", reason: "" })).status).toBe(400);
    expect(await decide(review.id, { decision: "reject", reason: "La foto del documento no es legible" })).toMatchObject({ status: 200, body: { locked: false, attemptsLeft: 2 } });
    // signing is refused now, and the next try counts as the second
    expect((await flow.sign()).status).toBe(403);
    const still = await flow.startFacialTry();
    expect(await facialAnswerOf(await flow.facialTry({ ticket: still.ticket, frames: framesFor(still.challenges, () => "still"), idDocument: card }))).toMatchObject({
      body: { status: "failed", reason: "not_live", attemptsLeft: 1 },
    });
  }, 300_000);

  it("every level the facial step produces reaches sign_data.identity and the callback: none without a challenge, registry with a registry photo", async () => {
    const nobody = signer({ signChallenges: [] });
    const withPhoto = signer();
    expect((await uploadRegistryPhoto(seeded.server.baseUrl, adminToken, withPhoto, facePhoto("person-a-obama/a1-id-portrait-413x531.jpg"))).status).toBe(201);
    for (const [person, level, method] of [[nobody, "none", "none"], [withPhoto, "registry", "registry-photo"]] as const) {
      const created = await admin.create({ signers: [person], description: `Nivel ${level}`, urlCallback: callbackUrl });
      expect(created.status).toBe(201);
      const { id, msg } = (await created.json()) as { id: string; msg: string };
      const flow = signerHttp(seeded.server.baseUrl, msg);
      expect((await flow.identify(person.doc_id)).status).toBe(200);
      expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
      if (level === "registry") {
        const { challenges, ticket } = await flow.startFacialTry();
        expect(await facialAnswerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose) }))).toMatchObject({ body: { status: "passed" } });
      }
      await flow.showEveryPage((await processRecord(id)).documents);
      const signed = await flow.sign();
      expect(signed.status, await signed.clone().text()).toBe(200);
      const record = await processRecord(id);
      expect(record.signers[0].sign_data.identity, level).toMatchObject({ level, method });
      const callback = await waitFor(async () => receiver.received.find((body) => body.id === id && body.status === "signed"), 60_000);
      expect(callback.signers[0].sign_data.identity, level).toMatchObject({ level, method });
    }
  }, 300_000);

  it("where the owner switched review off, the same card signs at once at level document: in sign_data, the callback and the certificate's policy OID", async () => {
    const base = seeded.server.baseUrl;
    const organization = seeded.orgs.perSigner;
    const owner = await staffCookie(base, `owner@${organization.domain}`, ADMIN_PASSWORD);
    // the owner's own path: the settings form's server action, as the browser sends it
    const switched = await callServerAction(base, { page: "/organization", exportedName: "updateSettingsAction", file: "organization/actions" }, [{ identityReviewRequired: false }], owner);
    expect(switched.result).toMatchObject({ ok: true });
    const audit = await (await fetch(`${base}/audit`, { headers: { cookie: owner } })).text();
    expect(audit).toContain('title="organization.identity_review_switched"');

    const api = processApi(base, await login(base, organization.domain, organization.admin, SECRET));
    const person = people.unreviewed;
    const created = await api.create({ signers: [person], description: "DNI sin revisión", urlCallback: callbackUrl });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id, msg } = (await created.json()) as { id: string; msg: { link: string }[] };
    const flow = signerHttp(base, msg[0].link);
    expect((await flow.identify(person.doc_id)).status).toBe(200);
    expect((await flow.confirmNames("Ana", "Soto")).status).toBe(200);
    const { challenges, ticket } = await flow.startFacialTry();
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
    expect(await facialAnswerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose), idDocument: card }))).toMatchObject({ status: 200, body: { status: "passed" } });
    // nobody reviews: the queue of the signer's organization stays empty, and "Firmar" signs
    const queue = (await (await fetch(`${base}/api/dashboard/identity-reviews`, { headers: { cookie: owner } })).json()) as { reviews: { signer: { docId: string } }[] };
    expect(queue.reviews.map((r) => r.signer.docId)).not.toContain(person.doc_id);
    await flow.showEveryPage((await processRecord(id, api)).documents);
    const signed = await flow.sign();
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect(await signed.json()).toMatchObject({ completed: true });

    const record = await processRecord(id, api);
    expect(record.status).toBe("signed");
    expect(record.signers[0].sign_data.identity).toMatchObject({ level: "document", method: "id-document" });
    expect(record.signers[0].sign_data.identity).not.toHaveProperty("reviewedBy");
    const callback = await waitFor(async () => receiver.received.find((body) => body.id === id && body.status === "signed"), 60_000);
    expect(callback.signers[0].sign_data.identity).toMatchObject({ level: "document", method: "id-document" });
    const pdf = new Uint8Array(await (await fetch(record.documents[0].url)).arrayBuffer());
    const validation = validatePdf(pdf, await (await fetch(`${base}/api/pki/ca.pem`)).text());
    expect(validation.pass, validation.output).toBe(true);
    const certificates = firstSignatureCertificatesText(pdf);
    expect(certificates).toContain(`Policy: ${identityLevelPolicyOids.document}`);
    expect(certificates).not.toContain(`Policy: ${identityLevelPolicyOids["document-reviewed"]}`);
  }, 300_000);

  it("refuses, without counting a try, a card with another number, an expired card, a selfie, and a forged ticket", async () => {
    const { person, flow } = await identifiedSigner(people.refusals);
    const cases: [string, Uint8Array, string][] = [
      ["a card with another number", photographCard({ portrait: CARD_PORTRAIT, docNumber: String(Number(person.doc_id) + 1), unmarked: true }), "id_document_wrong_number"],
      ["an expired card", photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true, expiry: "200101" }), "id_document_expired"],
      ["a selfie as the ID document", new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a2-selfie-like-480x640.jpg"))), "id_document_not_a_card"],
    ];
    for (const [name, idDocument, reason] of cases) {
      // each upload spends its ticket, whatever the outcome: every try starts with a new one
      const { challenges, ticket } = await flow.startFacialTry();
      const answer = await facialAnswerOf(await flow.facialTry({ ticket, frames: framesFor(challenges, (c) => c as Pose), idDocument }));
      expect(answer, name).toMatchObject({ status: 200, body: { status: "retry", reason, attemptsLeft: 3 } });
    }
    const { challenges, ticket } = await flow.startFacialTry();
    const forged = await facialAnswerOf(await flow.facialTry({ ticket: `${ticket.slice(0, -4)}AAAA`, frames: framesFor(challenges, (c) => c as Pose), idDocument: photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true }) }));
    expect(forged).toMatchObject({ status: 400, body: { reason: "ticket_invalid" } });
    const withoutTicket = await fetch(`${seeded.server.baseUrl}/api/signer/${flow.token}/facial`, { method: "POST", headers: { cookie: flow.cookie() }, body: new FormData() });
    expect(withoutTicket.status).toBe(400);
  }, 300_000);

  it("a still photo and a photo whose nose is warped to fake a turn are judged not live, and count as tries", async () => {
    const { person, flow } = await identifiedSigner(people.notLive);
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
    const still = await flow.startFacialTry();
    expect(await facialAnswerOf(await flow.facialTry({ ticket: still.ticket, frames: framesFor(still.challenges, () => "still"), idDocument: card }))).toMatchObject({
      status: 200,
      body: { status: "failed", reason: "not_live", attemptsLeft: 2 },
    });
    const warped = await flow.startFacialTry();
    const warpedFrames = framesFor(warped.challenges, (c) => (c.startsWith("turn-") ? (`nose-warped-${c}` as Pose) : (c as Pose)));
    expect(await facialAnswerOf(await flow.facialTry({ ticket: warped.ticket, frames: warpedFrames, idDocument: card }))).toMatchObject({
      status: 200,
      body: { status: "failed", reason: "not_live", attemptsLeft: 1 },
    });
  }, 300_000);
});
