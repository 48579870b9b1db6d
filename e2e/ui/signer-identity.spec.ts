import fs from "node:fs";
import { expect, test, type Browser } from "../fixtures/browser-test";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera, type Performer } from "../fixtures/scripted-camera";
import { SignerPage } from "../pages/signer-page";
import { fixturePath } from "../../test/fixtures-dir";

// The facial step without a registry photo, at phone and desktop sizes: the ID document must be the
// signer's identity card, and liveness must refuse one photo however it is presented. OCR and face
// models run on the server per try: generous limits.
let admin: ProcessApi;
const CARD_PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";

test.beforeAll(async ({ baseURL }) => {
  posesOf("A"); // made once, before any page waits on it
  admin = processApi(baseURL!, await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
});

/** A signer who identified and confirmed names, then a device whose camera is `performer`, carrying that session. */
async function atFacialStep(browser: Browser, size: typeof PHONE | typeof DESKTOP, performer: Performer) {
  const person = signer();
  const created = await admin.create({ signers: [person], description: "Identidad con DNI" });
  expect(created.status).toBe(201);
  const link = ((await created.json()) as { msg: string }).msg;
  const identity = await browser.newContext(size);
  const start = new SignerPage(await identity.newPage());
  await start.open(link);
  await start.identify(person.doc_id);
  await start.confirmNames({ given: "Ana", family: "Soto" });
  await start.expectFacialStep();
  const device = await browser.newContext({ ...size, storageState: await identity.storageState() });
  await useScriptedCamera(device, posesOf("A"), performer);
  const page = new SignerPage(await device.newPage());
  // Whatever the try, the browser never learns a score, a threshold or a liveness code. The bodies are
  // read as they come and judged at the end of the test: an upload sent ahead (a frame, the card) may
  // answer after the page has moved on, when its body can no longer be read, and a listener must not
  // throw where no test step catches it.
  const answers: Promise<{ url: string; body: string | null }>[] = [];
  page.page.on("response", (response) => {
    if (!new URL(response.url()).pathname.includes("/facial")) return;
    answers.push(response.text().then((body) => ({ url: response.url(), body }), () => ({ url: response.url(), body: null })));
  });
  /** Every /facial answer read so far says nothing of the score; `tries` of them were the tries' own. */
  const expectNothingLeaked = async (tries: number) => {
    const read = await Promise.all(answers);
    // the tries' own answers are what the test awaited, so each of them was read
    expect(read.filter((answer) => new URL(answer.url).pathname.endsWith("/facial") && answer.body !== null)).toHaveLength(tries);
    for (const { body } of read) {
      // the ticket is an opaque token (random characters, a dot, digits): it may look like a decimal, so it is left out
      expect(body?.replace(/"ticket":"[^"]*"/, '"ticket":""') ?? "").not.toMatch(/similarity|threshold|score|antispoof|liveness|0\.\d{2,}/);
    }
  };
  await page.open(link);
  return { person, page, expectNothingLeaked };
}

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: a selfie as the ID document, a card with another number and a SPECIMEN card are refused; the signer's own card goes to staff review`, async ({ browser }) => {
    test.setTimeout(300_000);
    const { person, page, expectNothingLeaked } = await atFacialStep(browser, size, "live");
    const attempts = page.page.getByTestId("attempts-left");

    await page.chooseIdDocument(new Uint8Array(fs.readFileSync(fixturePath("faces/person-a-obama/a2-selfie-like-480x640.jpg"))));
    await page.startCamera();
    expect(await page.runChallenge()).toMatchObject({ status: "retry", reason: "id_document_not_a_card" });
    await expect(page.page.getByTestId("facial-feedback")).toContainText("no muestra un documento de identidad");
    await expect(attempts).toContainText("Intentos restantes: 3");
    await page.screenshot(`signer-id-document-not-a-card-${label}`);

    await page.chooseIdDocument(photographCard({ portrait: CARD_PORTRAIT, docNumber: String(Number(person.doc_id) + 1), unmarked: true }));
    await page.startCamera();
    expect(await page.runChallenge()).toMatchObject({ status: "retry", reason: "id_document_wrong_number" });
    await expect(page.page.getByTestId("facial-feedback")).toContainText("no es el que ingresó");
    await expect(attempts).toContainText("Intentos restantes: 3");

    await page.chooseIdDocument(photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id }));
    await page.startCamera();
    expect(await page.runChallenge()).toMatchObject({ status: "retry", reason: "id_document_specimen" });
    await expect(attempts).toContainText("Intentos restantes: 3");

    // a self-supplied card never signs by itself: the match puts the signer under staff review (e2e/ui/identity-review.spec.ts)
    await page.chooseIdDocument(photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true }));
    await page.startCamera();
    expect(await page.runChallenge()).toMatchObject({ status: "under_review" });
    await page.expectReadStep();
    await expect(page.page.getByTestId("identity-under-review")).toBeVisible();
    await expectNothingLeaked(4);
  });

  test(`${label}: a still photo and a photo whose nose is warped to fake a turn are refused as not live`, async ({ browser }) => {
    test.setTimeout(300_000);
    const { person, page, expectNothingLeaked } = await atFacialStep(browser, size, "still-photo");
    const card = photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true });
    await page.chooseIdDocument(card);
    await page.startCamera();
    expect(await page.runChallenge()).toMatchObject({ status: "failed", reason: "not_live" });
    await page.expectFacialFailure(/No detectamos el movimiento pedido/, 2);
    await expectNothingLeaked(1);

    const warped = await browser.newContext({ ...size, storageState: await page.page.context().storageState() });
    await useScriptedCamera(warped, posesOf("A"), "nose-warped-photo");
    const attacker = new SignerPage(await warped.newPage());
    await attacker.open(page.page.url());
    await attacker.chooseIdDocument(card);
    await attacker.startCamera();
    expect(await attacker.runChallenge()).toMatchObject({ status: "failed", reason: "not_live" });
    await attacker.expectFacialFailure(/No detectamos el movimiento pedido/, 1);
    await attacker.screenshot(`signer-facial-warped-photo-${label}`);
  });
}
