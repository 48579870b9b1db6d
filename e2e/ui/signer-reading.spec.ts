import { spawnSync } from "node:child_process";
import { expect, test, type BrowserContext } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, TINY_PDF, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { contractPdf, facePhoto, uploadRegistryPhoto } from "../fixtures/signer-documents";
import { SignerPage } from "../pages/signer-page";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { signInAs, ADMIN } from "../fixtures/dashboard";
import { qpdfCheck, tempFile } from "../fixtures/independent-validators";

// the suite's own server (playwright.config.ts)
let admin: ProcessApi;
let accessToken: string;
let baseUrl: string;

test.beforeAll(async ({ baseURL }) => {
  baseUrl = baseURL!;
  accessToken = await login(baseUrl, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET);
  admin = processApi(baseUrl, accessToken);
});

const sizes = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;

/** Two files (2 pages + 1 page) for one signer; the link identifies by itself. */
async function newProcess(person: ReturnType<typeof signer>): Promise<string> {
  return (await newProcessWithId(person)).link;
}

async function newProcessWithId(person: ReturnType<typeof signer>): Promise<{ id: string; link: string }> {
  const created = await admin.create({ signers: [person], readChallenges: [], description: "Lectura completa" }, [
    { name: "contrato.pdf", bytes: contractPdf() },
    { name: "anexo.pdf", bytes: TINY_PDF() },
  ]);
  expect(created.status).toBe(201);
  const { id, msg } = (await created.json()) as { id: string; msg: string };
  return { id, link: msg };
}

/**
 * The read step as it opens: at the top of the page with page 1 of the first file drawn in view,
 * nothing further down shown, signing disabled.
 */
async function expectOpensAtFirstPage(reader: SignerPage) {
  await reader.expectReadStep();
  await reader.expectDocumentsLoaded();
  const first = reader.pageSlots().first();
  await expect(first).toHaveAttribute("data-rendered", "1", { timeout: 30_000 });
  expect(await reader.page.evaluate(() => window.scrollY)).toBe(0);
  await expect(first).toBeInViewport();
  await expect(reader.pageSlots().last()).not.toBeInViewport();
  const shown = await reader.page.locator('.pdf-page[data-shown="1"]').evaluateAll((slots) => slots.map((s) => s.closest("article")!.getAttribute("data-document-id") + ":" + s.getAttribute("data-page-index")));
  const firstDocument = await reader.page.locator("article[data-document-id]").first().getAttribute("data-document-id");
  expect(shown.every((key) => key === `${firstDocument}:0`), `shown at open: ${shown}`).toBe(true);
  await expect(reader.signButton()).toBeDisabled();
}

/**
 * Every page but `missing` in view: still disabled once the server answered, and the server refuses
 * to sign; bringing `missing` into view enables signing.
 */
async function readAllButOneThenSign(reader: SignerPage, api: string, missing: number) {
  const total = await reader.pageSlots().count();
  expect(total).toBe(3);
  for (let i = 0; i < total; i++) if (i !== missing) await reader.readPages(i, i);
  // the server's record holds every page read so far, and says that is not all of them
  await expect(reader.page.getByTestId("reading-progress")).toHaveAttribute("data-recorded-shown", String(total - 1), { timeout: 30_000 });
  expect(await reader.readingProgress()).toEqual({ shown: total - 1, total, recorded: false });
  await expect(reader.page.getByText("Recorra cada página")).toBeVisible();
  await expect(reader.signButton()).toBeDisabled();
  const early = await reader.page.request.post(`${baseUrl}${api}/sign`);
  expect(early.status()).toBe(403);
  expect(await early.json()).toMatchObject({ reason: "pages_not_shown" });
  await expect(reader.signButton()).toBeDisabled();

  await reader.readPages(missing, missing);
  await expect(reader.page.getByTestId("reading-progress")).toHaveAttribute("data-recorded", "1", { timeout: 30_000 });
  await expect(reader.signButton()).toBeEnabled();
  await reader.signButton().click();
  await expect(reader.page.getByTestId("signed-receipt")).toBeVisible({ timeout: 60_000 });
}

for (const [label, size] of sizes) {
  test(`${label}: without a facial step the read step shows page 1 first and signing waits for every page`, async ({ browser }) => {
    test.setTimeout(120_000);
    const link = await newProcess(signer({ signChallenges: [] }));
    const reader = new SignerPage(await (await browser.newContext(size)).newPage());
    await reader.page.goto(link); // identifies by itself
    await reader.confirmNames({ given: "Ana", family: "Soto" });
    await expectOpensAtFirstPage(reader);
    // jumping to the last page shows it, but not the pages skipped
    await reader.pageSlots().last().scrollIntoViewIfNeeded();
    await expect(reader.pageSlots().last()).toHaveAttribute("data-shown", "1", { timeout: 30_000 });
    await expect(reader.pageSlots().nth(1)).not.toHaveAttribute("data-shown", "1");
    await expect(reader.signButton()).toBeDisabled();
    await readAllButOneThenSign(reader, `/api/signer/${link.split("/").pop()}`, 1);
    await reader.screenshot(`signer-read-signed-${label}`);
  });

  test(`${label}: after the facial step the read step opens at page 1, not where the facial step was scrolled`, async ({ browser }) => {
    test.setTimeout(180_000);
    const person = signer();
    expect((await uploadRegistryPhoto(baseUrl, accessToken, person, facePhoto("person-a-obama/a1-id-portrait-413x531.jpg"))).status).toBe(201);
    const link = await newProcess(person);
    const identity: BrowserContext = await browser.newContext(size);
    const start = new SignerPage(await identity.newPage());
    await start.page.goto(link);
    await start.confirmNames({ given: "Ana", family: "Soto" });
    await start.expectFacialStep();

    const camera = await browser.newContext({ ...size, storageState: await identity.storageState() });
    await useScriptedCamera(camera, posesOf("A"));
    const reader = new SignerPage(await camera.newPage());
    await reader.open(link);
    await reader.startCamera();
    expect((await reader.runChallenge()).status).toBe("passed");
    await expectOpensAtFirstPage(reader);
    await reader.screenshot(`signer-read-after-facial-${label}`, false);
    await readAllButOneThenSign(reader, `/api/signer/${link.split("/").pop()}`, 2);
  });
}

test("staff download the signed evidence summary from the process page: the pages the signer was shown, with times and device", async ({ browser, page }) => {
  test.setTimeout(120_000);
  const { id, link } = await newProcessWithId(signer({ signChallenges: [], signerAlias: "Lectora" }));
  const reader = new SignerPage(await (await browser.newContext(PHONE)).newPage());
  await reader.page.goto(link);
  await reader.confirmNames({ given: "Lucía", family: "Lectora Paz" });
  await reader.expectDocumentsLoaded();
  await reader.readPages(0, 0);
  await expect(reader.page.getByTestId("reading-progress")).toHaveAttribute("data-recorded-shown", "1", { timeout: 30_000 });

  await signInAs(page, ADMIN.email, ADMIN.password);
  const detail = new ProcessDetailPage(page);
  await detail.open(id);
  const summary = await detail.downloadEvidenceSummary();
  expect(summary.name).toMatch(/^evidencias-[0-9a-f]{32}\.pdf$/);
  const qpdf = qpdfCheck(summary.bytes);
  expect(qpdf.ok, qpdf.output).toBe(true);
  const file = tempFile("evidence.pdf", summary.bytes);
  expect(spawnSync("pdfsig", ["-nocert", file], { encoding: "utf8" }).stdout).toContain("Signature Validation: Signature is Valid.");
  const text = spawnSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
  expect(text).toContain("Lectora");
  expect(text).toMatch(/contrato\.pdf: 1 páginas, entre/);
  expect(text).toMatch(/p\.1 \d\d:\d\d:\d\d\.\d{3}/);
  expect(text).toContain(await reader.page.evaluate(() => navigator.userAgent)); // the device that was shown the page
  expect(text).toContain("Aún no firmó.");
});

test("a report of pages shown that does not reach the server keeps signing disabled until it is sent again", async ({ browser }) => {
  test.setTimeout(120_000);
  const link = await newProcess(signer({ signChallenges: [] }));
  const reader = new SignerPage(await (await browser.newContext(DESKTOP)).newPage());
  // the network drops every report at first
  await reader.page.route("**/pages", (route) => route.abort("internetdisconnected"));
  await reader.page.goto(link);
  await reader.confirmNames({ given: "Ana", family: "Soto" });
  await reader.expectDocumentsLoaded();
  await reader.readPages(0, (await reader.pageSlots().count()) - 1);
  const alert = reader.page.getByRole("alert").filter({ hasText: "No pudimos conectar con el servidor" });
  await expect(alert).toBeVisible();
  expect(await reader.readingProgress()).toEqual({ shown: 3, total: 3, recorded: false });
  await expect(reader.signButton()).toBeDisabled();
  // back online: the pages kept are sent again
  await reader.page.unroute("**/pages");
  await alert.getByRole("button", { name: "Reintentar" }).click();
  await expect(reader.page.getByTestId("reading-progress")).toHaveAttribute("data-recorded", "1", { timeout: 30_000 });
  await expect(alert).toBeHidden();
  await expect(reader.signButton()).toBeEnabled();
});
