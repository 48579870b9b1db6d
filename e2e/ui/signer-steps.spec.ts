import { expect, test, type Page } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { SignerPage } from "../pages/signer-page";

// The progress bar of the signer page names only the signer's own stages: no "Validación facial"
// for a signer without that challenge (it used to be shown as done), and it is there for one who has it.
let admin: ProcessApi;

test.beforeAll(async ({ baseURL }) => {
  admin = processApi(baseURL!, await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
});

const stages = (page: Page) => page.locator("ol.signer-steps > li");

async function linkFor(signers: Record<string, unknown>[]) {
  const created = await admin.create({ signers, description: "Etapas del firmante" });
  expect(created.status, await created.clone().text()).toBe(201);
  return ((await created.json()) as { msg: string }).msg;
}

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: a signer without a facial challenge sees no facial stage, from identification to signing`, async ({ browser }) => {
    test.setTimeout(120_000);
    const person = signer({ signChallenges: [] });
    const context = await browser.newContext(size);
    const page = new SignerPage(await context.newPage());
    await page.open(await linkFor([person]));
    await expect(stages(page.page)).toHaveText(["Identificación", "Lectura"]);
    await expect(page.page.locator("ol.signer-steps")).toHaveAttribute("aria-label", "Paso 1/2");
    await page.identify(person.doc_id);
    await page.confirmNames({ given: "Ana", family: "Soto" });
    await page.expectReadStep();
    await expect(stages(page.page)).toHaveText(["Identificación", "Lectura"]);
    await expect(page.page.getByText("Validación facial")).toHaveCount(0);
    await expect(stages(page.page).nth(0)).toHaveClass("done");
    await expect(stages(page.page).nth(1)).toHaveAttribute("aria-current", "step");
    await page.screenshot(`signer-stages-no-facial-${label}`);
    await page.readAndSign();
  });

  test(`${label}: a signer with a facial challenge sees it as the current stage after identification`, async ({ browser }) => {
    const person = signer({ signChallenges: ["facial"] });
    const context = await browser.newContext(size);
    const page = new SignerPage(await context.newPage());
    await page.open(await linkFor([person]));
    await expect(stages(page.page)).toHaveText(["Identificación", "Validación facial", "Lectura"]);
    await page.identify(person.doc_id);
    await page.confirmNames({ given: "Ana", family: "Soto" });
    await page.expectFacialStep();
    await expect(stages(page.page).nth(1)).toHaveAttribute("aria-current", "step");
    await expect(page.page.locator("ol.signer-steps")).toHaveAttribute("aria-label", "Paso 2/3");
  });
}

test("a shared link whose signers differ shows no stages until the signer is known, then that signer's own", async ({ browser }) => {
  const withFacial = signer({ signChallenges: ["facial"] });
  const without = signer({ signChallenges: [] });
  const context = await browser.newContext(PHONE);
  const page = new SignerPage(await context.newPage());
  await page.open(await linkFor([withFacial, without]));
  await expect(page.page.getByLabel("Número de documento")).toBeVisible();
  await expect(stages(page.page)).toHaveCount(0);
  await page.identify(without.doc_id);
  await page.confirmNames({ given: "Luis", family: "Paz" });
  await expect(stages(page.page)).toHaveText(["Identificación", "Lectura"]);
});
