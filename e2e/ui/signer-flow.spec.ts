import http from "node:http";
import { expect, test, type Browser, type BrowserContext } from "../fixtures/browser-test";
import { ADMIN_API_SECRET } from "../fixtures/start-test-server";
import { startSeededServer, type SeededServer } from "../fixtures/start-seeded-server";
import { login, processApi, signer, waitFor, type ProcessApi } from "../fixtures/process-api-client";
import { validatePdf } from "../fixtures/independent-validators";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { contractPdf, facePhoto, hundredPagePdf, uploadRegistryPhoto } from "../fixtures/signer-documents";
import { SignerPage } from "../pages/signer-page";

// Own server: the callback goes to a loopback receiver, which only an organization with
// allow_private_callbacks may call (the seeded-server fixture sets it, as the API suites do).
let seeded: SeededServer;
let admin: ProcessApi;
let token: string;
let receiver: http.Server;
let callbackUrl = "";
const received: { body: string }[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
  seeded = await startSeededServer();
  const { shared } = seeded.orgs;
  token = await login(seeded.server.baseUrl, shared.domain, shared.admin, ADMIN_API_SECRET);
  admin = processApi(seeded.server.baseUrl, token);
});

test.afterAll(async () => {
  await seeded?.server.stop();
  receiver?.close();
});

/** A device whose camera shows `person` doing what the page asks, carrying the signer session of `from` (cookies). */
async function withCamera(browser: Browser, person: "A" | "B", from: BrowserContext, size: typeof PHONE | typeof DESKTOP = PHONE): Promise<SignerPage> {
  const context = await browser.newContext({ ...size, storageState: await from.storageState() });
  await useScriptedCamera(context, posesOf(person));
  return new SignerPage(await context.newPage());
}

test("two signers in order: wrong ID, face checks against registry photos, signing, B-LTA PDF and callback", async ({ browser }) => {
  test.setTimeout(240_000);
  const base = seeded.server.baseUrl;
  const first = signer({ signerAlias: "Firmante A" });
  const second = signer({ signerAlias: "Firmante B", pinfo: { given_name: "José", family_name: "Biden" } });
  expect((await uploadRegistryPhoto(base, token, first, facePhoto("person-a-obama/a1-id-portrait-413x531.jpg"))).status).toBe(201);
  expect((await uploadRegistryPhoto(base, token, second, facePhoto("person-b-biden/b1-id-portrait-413x531.jpg"))).status).toBe(201);
  const created = await admin.create(
    { signers: [first, second], signOrder: true, description: "Contrato de servicios", urlCallback: callbackUrl },
    [{ name: "contrato.pdf", bytes: contractPdf() }],
  );
  expect(created.status).toBe(201);
  const { id, msg: link } = (await created.json()) as { id: string; msg: string };

  // signer 1: a wrong ID number, then the right one
  const identityContext = await browser.newContext(PHONE);
  const one = new SignerPage(await identityContext.newPage());
  await one.open(link);
  await one.screenshot("signer-identify-phone");
  await one.identify("00000000");
  await one.expectWrongId(4);
  await one.identify(first.doc_id);
  await one.screenshot("signer-names-phone");
  await one.confirmNames({ given: "Ana María", family: "Rojas Núñez" });
  await one.expectFacialStep();
  await one.screenshot("signer-facial-intro-phone");

  // face check with person A's camera clip, turning as asked, against A's registry photo
  const oneCam = await withCamera(browser, "A", identityContext);
  await oneCam.open(link);
  await oneCam.startCamera();
  await oneCam.runChallenge();
  await oneCam.screenshot("signer-facial-challenge-phone");
  await oneCam.expectReadStep();
  await expect(oneCam.page.getByTestId("stamp-placeholder-page")).toBeVisible();
  await expect(oneCam.page.getByTestId("stamp-mark")).toBeVisible();
  await oneCam.screenshot("signer-read-phone");
  await oneCam.readAndSign();
  await expect(oneCam.page.getByTestId("pending-signers")).toHaveAttribute("data-pending", "1");
  await oneCam.screenshot("signer-done-pending-phone");

  // signer 2: A's face fails against B's registry photo, B's passes
  const secondContext = await browser.newContext(DESKTOP);
  const two = new SignerPage(await secondContext.newPage());
  await two.open(link);
  await two.identify(second.doc_id);
  await two.confirmNames({ expectPrefilled: { given: "José", family: "Biden" }, given: "Joseph Robinette" });
  await two.expectFacialStep();
  const wrongFace = await withCamera(browser, "A", secondContext);
  await wrongFace.open(link);
  await wrongFace.startCamera();
  await wrongFace.runChallenge();
  await wrongFace.expectFacialFailure(/No pudimos confirmar su identidad/, 2);
  await wrongFace.screenshot("signer-facial-failed-phone");

  const twoCam = await withCamera(browser, "B", secondContext, DESKTOP);
  await twoCam.open(link);
  await expect(twoCam.page.getByTestId("attempts-left")).toContainText("Intentos restantes: 2");
  await twoCam.startCamera();
  await twoCam.runChallenge();
  await twoCam.expectReadStep();
  await expect(twoCam.page.locator('[data-testid="stamp-mark"]')).toBeVisible();
  await twoCam.screenshot("signer-read-desktop");
  await twoCam.readAndSign();
  await expect(twoCam.page.getByTestId("pending-signers")).toHaveAttribute("data-pending", "0");
  await twoCam.screenshot("signer-done-complete-desktop");

  const signed = await twoCam.download(/Descargar/);
  const caPem = await (await fetch(`${base}/api/pki/ca.pem`)).text();
  const validation = validatePdf(signed, caPem);
  expect(validation.pass, validation.output).toBe(true);
  expect(validation.signatures).toBe(3);

  const callback = await waitFor(async () => received.map((r) => JSON.parse(r.body)).find((p) => p.id === id && p.status === "signed"), 30_000);
  expect(callback.signers.map((s: { nat_dni?: string; doc_id?: string }) => s)).toHaveLength(2);
  expect(callback.signers.map((s: { pinfo: unknown }) => s.pinfo)).toEqual([
    { given_name: "Ana María", family_name: "Rojas Núñez" },
    { given_name: "Joseph Robinette", family_name: "Biden" },
  ]);
});

test("a 100-page file shows its first page quickly and draws pages only when reached", async ({ browser }) => {
  const s = signer({ signChallenges: [] });
  const created = await admin.create({ signers: [s], readChallenges: [], description: "Anexo largo" }, [{ name: "anexo-100.pdf", bytes: hundredPagePdf() }]);
  const { msg: link } = (await created.json()) as { msg: string };
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const signerPage = new SignerPage(page);
  await page.goto(link); // identifies by itself (readChallenges [])
  await signerPage.confirmNames({ given: "Rosa", family: "Quispe" });
  await signerPage.expectReadStep();
  const opened = Date.now();
  const firstPage = page.locator('.pdf-page[data-page-index="0"][data-rendered="1"]');
  await expect(firstPage).toBeVisible();
  const visibleAfter = Date.now() - opened;
  const sinceNavigation = Number(await page.locator(".pdf-viewer").getAttribute("data-first-page-ms"));
  // the same page opened again (session cookie set): navigation → read step rendered on the server → first page drawn
  await page.reload();
  await expect(firstPage).toBeVisible();
  const onReload = Number(await page.locator(".pdf-viewer").getAttribute("data-first-page-ms"));
  console.log(`100-page file, reload: first page drawn ${onReload} ms after navigation start`);
  console.log(`100-page file: first page drawn ${sinceNavigation} ms after navigation start (${visibleAfter} ms after the read step appeared)`);
  expect(await page.locator(".pdf-page[data-page-index]").count()).toBe(100);
  expect(await page.locator('.pdf-page[data-rendered="1"]').count()).toBeLessThan(10);
  await signerPage.screenshot("signer-read-100-pages-phone", false);
  // jumping to the end draws the last pages but signing needs every page in view
  await page.locator('.pdf-page[data-page-index="99"]').scrollIntoViewIfNeeded();
  await expect(page.locator('.pdf-page[data-page-index="99"][data-shown="1"]')).toBeVisible();
  await expect(page.getByRole("button", { name: "Firmar", exact: true })).toBeDisabled();
  await expect(page.locator('.pdf-page[data-page-index="99"][data-rendered="1"]')).toBeVisible();
  // pages far behind gave their canvas back
  await expect(page.locator('.pdf-page[data-page-index="0"]')).not.toHaveAttribute("data-rendered", "1");
  expect(await page.locator('.pdf-page[data-rendered="1"]').count()).toBeLessThan(25);
});
