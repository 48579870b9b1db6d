import { expect, test } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { SignerPage } from "../pages/signer-page";

// react-hook-form writes each field's default into the DOM as it registers it, so input typed into
// the server's HTML before hydration was silently replaced (a reset "require approval" box left a
// whole CI run's processes waiting for approval). Forms are disabled until React runs them.
// The server's HTML is what a browser without scripts shows: there, nothing can be typed or sent.
test("the login and signer forms take no input until the page's script runs, then every field works", async ({ browser, baseURL }) => {
  const admin = processApi(baseURL!, await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
  const person = signer();
  const created = await admin.create({ signers: [person] });
  expect(created.status).toBe(201);
  const { msg: link } = (await created.json()) as { msg: string };

  const scriptless = await browser.newContext({ javaScriptEnabled: false });
  const before = await scriptless.newPage();
  await before.goto("/login");
  await expect(before.getByLabel("Correo electrónico")).toBeDisabled();
  await expect(before.getByRole("button", { name: "Ingresar" })).toBeDisabled();
  await before.goto(link);
  await expect(before.getByLabel("Número de documento")).toBeDisabled();
  await expect(before.getByRole("button", { name: "Continuar" })).toBeDisabled();
  await scriptless.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await expect(page.getByLabel("Correo electrónico")).toBeEnabled();
  await expect(page.getByRole("button", { name: "Ingresar" })).toBeEnabled();
  const signerPage = new SignerPage(await context.newPage());
  await signerPage.open(link);
  await signerPage.identify(person.doc_id);
  await signerPage.confirmNames({ given: "Ana", family: "Soto" });
  await context.close();
});
