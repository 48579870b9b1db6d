import fs from "node:fs";
import { expect, test, type Browser, type Page } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../fixtures/start-test-server";
import { signer } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { signInAs } from "../fixtures/dashboard";
import { startOidcTestProvider, type OidcTestProvider } from "../fixtures/oidc-test-provider";
import { setPrivateTargets } from "../fixtures/private-targets";
import { NewProcessPage } from "../pages/new-process-page";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { SignerPage } from "../pages/signer-page";
import { fixturePath } from "../../test/fixtures-dir";

// Staff choose "Identidad digital (eID)" per signer in the dashboard's new-process form (issue 25):
// offered only while the organization has an OpenID Connect provider, explained otherwise, and one
// identity challenge at most; the server refuses what the form would not send, as the process API does.
test.describe.configure({ mode: "serial" });

let op: OidcTestProvider;
const PROVIDER_NAME = "Identidad Digital del Panel";
const CONTRACT = () => fs.readFileSync(fixturePath("pdfs/valid/libreoffice70-tiny.pdf"));

test.beforeAll(async ({ baseURL }) => {
  op = await startOidcTestProvider({ redirectUri: `${baseURL}/ui/signature_processes/eid/callback` });
});
// other specs (signer-eid.spec.ts) start from an organization without a provider
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await removeProvider(page);
  await setPrivateTargets(page, false);
  await context.close();
  await op?.close();
});

async function removeProvider(page: Page) {
  await page.goto("/organization");
  const form = page.getByTestId("identity-provider-form");
  const remove = form.getByRole("button", { name: "Quitar proveedor" });
  if ((await remove.count()) === 0) return;
  await remove.click();
  await expect(form.getByRole("status")).toContainText("Proveedor de identidad eliminado.");
}

async function signedIn(browser: Browser, size: typeof PHONE | typeof DESKTOP) {
  const page = await (await browser.newContext(size)).newPage();
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  return page;
}

/** The dashboard's own upload route, with the staff session of `page`, as a crafted request would send it. */
function createThroughDashboard(page: Page, signers: unknown[]) {
  return page.request.put("/api/dashboard/processes", {
    multipart: { signers: JSON.stringify(signers), description: "eID a mano", pdfFiles: { name: "contrato.pdf", mimeType: "application/pdf", buffer: CONTRACT() } },
  });
}

test("without a provider the eID choice is explained, not offered, and the server refuses it naming the field", async ({ browser }) => {
  const page = await signedIn(browser, DESKTOP);
  await removeProvider(page);
  const form = new NewProcessPage(page);
  await form.open();
  await expect(form.identityChoice(0, "Ninguna")).toBeChecked();
  await expect(form.identityChoice(0, "Identidad digital (eID)")).toBeDisabled();
  await expect(form.eidHelp(0)).toContainText("configure primero un proveedor de identidad OpenID Connect en Organización");

  const person = signer();
  const eid = await createThroughDashboard(page, [{ nat: "PER", doc_id: person.doc_id, signChallenges: ["eid"] }]);
  expect(eid.status()).toBe(400);
  expect(await eid.json()).toMatchObject({ field: "signers.0.signChallenges", message: expect.stringContaining("proveedor de identidad OpenID Connect") });
  const both = await createThroughDashboard(page, [{ nat: "PER", doc_id: person.doc_id, signChallenges: ["facial", "eid"] }]);
  expect(both.status()).toBe(400);
  expect(await both.json()).toMatchObject({ field: "signers.0.signChallenges", message: expect.stringContaining("un solo desafío") });
});

test("staff configure the provider on the organization page", async ({ browser }) => {
  const page = await signedIn(browser, DESKTOP);
  // the provider listens on loopback: only the platform administrator may allow that
  await setPrivateTargets(page, true);
  await page.goto("/organization");
  const form = page.getByTestId("identity-provider-form");
  await form.getByLabel("Nombre que verá el firmante").fill(PROVIDER_NAME);
  await form.getByLabel("Issuer (URL del proveedor)").fill(op.issuer);
  await form.getByLabel("Client ID").fill(op.clientId);
  await form.getByLabel("Client secret").fill(op.clientSecret);
  await form.getByLabel(/^Scopes/).fill("profile document");
  await form.getByRole("button", { name: "Configurar proveedor" }).click();
  await expect(form.getByRole("status")).toContainText("Proveedor de identidad guardado.");
});

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: staff create a process with an eID signer in the dashboard; the signer is offered "Identificarme con" the provider`, async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await signedIn(browser, size);
    const form = new NewProcessPage(page);
    await form.open();
    await form.attach([{ name: "contrato.pdf", mimeType: "application/pdf", buffer: CONTRACT() }]);
    const person = signer();
    await form.fillSigner(0, { docId: person.doc_id, alias: "Firmante con eID" });
    await expect(form.eidHelp(0)).toContainText(`El firmante se identificará con ${PROVIDER_NAME}`);
    await form.identityChoice(0, "Validación facial").check();
    // one challenge at most: choosing eID unchooses facial
    await form.identityChoice(0, "Identidad digital (eID)").check();
    await expect(form.identityChoice(0, "Validación facial")).not.toBeChecked();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "the form overflows the screen").toBeLessThanOrEqual(0);
    await page.screenshot({ path: `e2e/artifacts/screenshots/dashboard-new-process-eid-${label}.png`, fullPage: true });
    await form.submit();
    await expect(page).toHaveURL(/\/processes\/[0-9a-f]{32}/);
    await expect(page.getByTestId("signers-table")).toContainText(`PER:${person.doc_id}`);

    // the signing link, issued from the process page
    const detail = new ProcessDetailPage(page);
    await detail.notify();
    const link = await page.getByRole("status").getByRole("link").first().getAttribute("href");
    expect(link).toBeTruthy();
    const signerPage = new SignerPage(await (await browser.newContext(size)).newPage());
    await signerPage.open(link!);
    await signerPage.identify(person.doc_id);
    await expect(signerPage.page.getByTestId("eid-step")).toBeVisible();
    await expect(signerPage.page.getByRole("button", { name: `Identificarme con ${PROVIDER_NAME}` })).toBeVisible();

    // and the provider's answer identifies them: names come from the provider
    const loginName = `panel-${label}-${person.doc_id}`;
    op.addAccount(loginName, { document_number: person.doc_id, given_name: "Rosa", family_name: "Huamán Torres" });
    await signerPage.page.getByRole("button", { name: `Identificarme con ${PROVIDER_NAME}` }).click();
    await signerPage.page.waitForURL((url) => url.href.startsWith(op.issuer));
    await signerPage.page.locator('input[name="login"]').fill(loginName);
    await signerPage.page.locator('input[name="password"]').fill("cualquier-clave");
    await signerPage.page.getByRole("button", { name: "Sign-in" }).click();
    await signerPage.page.getByRole("button", { name: "Continue" }).click();
    await signerPage.page.waitForURL((url) => !url.href.startsWith(op.issuer));
    await expect(signerPage.page.getByTestId("names-step")).toHaveAttribute("data-source", "eid");
    await expect(signerPage.page.getByLabel("Nombres", { exact: true })).toHaveValue("Rosa");
  });
}

test("a provider removed while the form is open: the server's refusal is shown under the signer's choice", async ({ browser }) => {
  const page = await signedIn(browser, DESKTOP);
  const form = new NewProcessPage(page);
  await form.open();
  await form.attach([{ name: "contrato.pdf", mimeType: "application/pdf", buffer: CONTRACT() }]);
  await form.fillSigner(0, { docId: signer().doc_id });
  await form.identityChoice(0, "Identidad digital (eID)").check();
  await removeProvider(await signedIn(browser, DESKTOP));
  await form.submit();
  await expect(page.getByTestId("signer-0-identity").locator(".field-error")).toContainText("proveedor de identidad OpenID Connect");
  await expect(page).toHaveURL(/\/processes\/new$/);
});
