import { expect, test } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { launchCameraBrowser, PHONE, DESKTOP } from "../fixtures/camera-browser";
import { noFaceClip } from "../fixtures/face-clips";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { SignerPage } from "../pages/signer-page";

// the suite's own server (playwright.config.ts): no callbacks needed here
let admin: ProcessApi;
let baseUrl: string;

test.beforeAll(async ({ baseURL }) => {
  baseUrl = baseURL!;
  admin = processApi(baseUrl, await login(baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
});

async function newLink(fields: Record<string, unknown>): Promise<{ id: string; link: string }> {
  const response = await admin.create(fields);
  expect(response.status).toBe(201);
  const { id, msg } = (await response.json()) as { id: string; msg: string };
  return { id, link: msg };
}

test.describe("pages that say why a link does not work", () => {
  test("unknown, expired and rejected links, on a phone and a desktop", async ({ browser }) => {
    for (const [label, options] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
      const page = new SignerPage(await (await browser.newContext(options)).newPage());
      await page.open("/ui/signature_processes/not-a-real-link");
      await page.expectProblem("unknown_link", "Enlace no válido");
      await page.screenshot(`signer-unknown-link-${label}`);
    }
    const expired = await newLink({ signers: [signer()], link_expire: "1" });
    const page = new SignerPage(await (await browser.newContext(PHONE)).newPage());
    // the link lasts 1 s: wait for the server to call it expired, then look at the page
    await expect.poll(async () => (await (await fetch(expired.link)).text()).includes('data-reason="link_expired"'), { timeout: 10_000 }).toBe(true);
    await page.open(expired.link);
    await page.expectProblem("link_expired", "El enlace venció");
    await page.screenshot("signer-link-expired-phone");

    const rejected = await newLink({ signers: [signer()] });
    expect((await admin.reject([rejected.id])).status).toBe(200);
    await page.open(rejected.link);
    await page.expectProblem("process_rejected", "El proceso fue rechazado");
    await page.screenshot("signer-process-rejected-phone");
    await page.page.context().clearCookies();
    await page.page.context().addCookies([{ name: "lang", value: "en", url: baseUrl }]);
    await page.open(rejected.link);
    await expect(page.page.getByRole("heading", { level: 1 })).toHaveText("The process was declined");
  });

  test("five wrong ID numbers lock the link and the page says how to get help", async ({ browser }) => {
    const { link } = await newLink({ signers: [signer()] });
    const page = new SignerPage(await (await browser.newContext(PHONE)).newPage());
    await page.open(link);
    for (let left = 4; left >= 1; left--) {
      await page.identify("00000000");
      await page.expectWrongId(left);
    }
    await page.identify("00000000");
    await page.expectProblem("locked", "Acceso bloqueado");
    await expect(page.page.getByText(/puede revisar su caso y enviarle un enlace nuevo/)).toBeVisible();
    await page.screenshot("signer-locked-phone");
  });
});

test.describe("facial step", () => {
  test("a refused camera explains how to allow it and retries; a still photo fails liveness", async ({ browser }) => {
    test.setTimeout(120_000);
    const person = signer();
    const { link } = await newLink({ signers: [person] });
    const identity = await browser.newContext(PHONE);
    const start = new SignerPage(await identity.newPage());
    await start.open(link);
    await start.identify(person.doc_id);
    await start.confirmNames({ given: "Ana", family: "Soto" });
    await start.expectFacialStep();
    // no registry photo: the signer photographs the front of their ID document (a made-up card with their number; one marked ESPECIMEN is refused)
    const card = photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: person.doc_id, unmarked: true });

    const denied = await launchCameraBrowser(await noFaceClip(), { grant: false });
    try {
      const context = await denied.newContext({ ...PHONE, storageState: await identity.storageState() });
      const page = new SignerPage(await context.newPage());
      await page.open(link);
      await page.chooseIdDocument(card);
      await page.startCamera();
      await expect(page.page.getByTestId("camera-problem")).toHaveAttribute("data-problem", "denied");
      await expect(page.page.getByRole("heading", { name: "No tenemos acceso a su cámara" })).toBeFocused();
      await page.screenshot("signer-camera-denied-phone");
      await context.grantPermissions(["camera"]);
      await page.page.getByRole("button", { name: "Reintentar" }).click();
      await expect(page.page.getByRole("button", { name: "Comenzar" })).toBeEnabled();
    } finally {
      await denied.close();
    }

    const still = await browser.newContext({ ...PHONE, storageState: await identity.storageState() });
    await useScriptedCamera(still, posesOf("A"), "still-photo");
    const page = new SignerPage(await still.newPage());
    await page.open(link);
    await page.chooseIdDocument(card);
    await page.startCamera();
    await page.runChallenge();
    await page.expectFacialFailure(/No detectamos el movimiento pedido/, 2);
    await page.screenshot("signer-facial-still-photo-phone");
  });
});
