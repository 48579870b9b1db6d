import { expect, test, type Browser, type Page } from "../fixtures/browser-test";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ADMIN_PASSWORD, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { signInAs } from "../fixtures/dashboard";
import { startOidcTestProvider, type OidcTestProvider } from "../fixtures/oidc-test-provider";
import { setPrivateTargets } from "../fixtures/private-targets";
import { validatePdf } from "../fixtures/independent-validators";
import { SignerPage } from "../pages/signer-page";

// The eID path (our extension, signChallenges ["eid"]) against a real OpenID Connect provider
// (oidc-provider) on a loopback port: its own login and consent forms, real RS256 id_tokens.
test.describe.configure({ mode: "serial" });

let op: OidcTestProvider;
let admin: ProcessApi;
let baseUrl: string;
const PROVIDER_NAME = "Identidad Digital de Prueba";

test.beforeAll(async ({ baseURL }) => {
  baseUrl = baseURL!;
  op = await startOidcTestProvider({ redirectUri: `${baseURL}/ui/signature_processes/eid/callback` });
  admin = processApi(baseURL!, await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET));
});
test.afterAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await setPrivateTargets(page, false);
  await context.close();
  await op?.close();
});

test("a signer with the eid challenge is refused while the organization has no provider", async () => {
  const response = await admin.create({ signers: [signer({ signChallenges: ["eid"] })], description: "eID sin proveedor" });
  expect(response.status).toBe(400);
  expect(response.headers.get("x-error-detail")).toMatch(/signers\.0\.signChallenges.*proveedor de identidad/);
});

test("staff configure the organization's provider; the client secret is never shown back", async ({ page }) => {
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto("/organization");
  const form = page.getByTestId("identity-provider-form");
  await expect(form).toContainText("No hay proveedor configurado");
  await form.getByLabel("Nombre que verá el firmante").fill(PROVIDER_NAME);
  await form.getByLabel("Issuer (URL del proveedor)").fill("http://idp.example.org");
  await form.getByLabel("Client ID").fill(op.clientId);
  await form.getByLabel("Client secret").fill(op.clientSecret);
  await form.getByLabel(/^Scopes/).fill("profile document");
  await form.getByRole("button", { name: "Configurar proveedor" }).click();
  // a remote provider without TLS is refused before anything is stored
  await expect(form).toContainText("issuer debe usar https");
  await form.getByLabel("Issuer (URL del proveedor)").fill(op.issuer);
  await form.getByRole("button", { name: "Configurar proveedor" }).click();
  // the test provider listens on loopback: refused until the platform administrator allows private targets
  await expect(form).toContainText("solo si el administrador de la plataforma permitió destinos de red privada");
  await setPrivateTargets(page, true);
  await page.goto("/organization");
  await form.getByLabel("Nombre que verá el firmante").fill(PROVIDER_NAME);
  await form.getByLabel("Issuer (URL del proveedor)").fill(op.issuer);
  await form.getByLabel("Client ID").fill(op.clientId);
  await form.getByLabel("Client secret").fill(op.clientSecret);
  await form.getByLabel(/^Scopes/).fill("profile document");
  await form.getByRole("button", { name: "Configurar proveedor" }).click();
  await expect(form.getByRole("status")).toContainText("Proveedor de identidad guardado.");
  await page.reload();
  await expect(form.getByLabel("Client ID")).toHaveValue(op.clientId);
  await expect(form.getByLabel("Client secret")).toHaveValue("");
  expect(await page.content()).not.toContain(op.clientSecret);
  await page.goto("/audit");
  await expect(page.locator("body")).toContainText("Proveedor de identidad (eID) guardado");
});

/** A new signer with the eid challenge, at their eID step in a browser of `size`. */
async function atEidStep(browser: Browser, size: typeof PHONE | typeof DESKTOP) {
  const person = signer({ signChallenges: ["eid"] });
  const created = await admin.create({ signers: [person], description: "Contrato con eID" });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id, msg: link } = (await created.json()) as { id: string; msg: string };
  const page = new SignerPage(await (await browser.newContext(size)).newPage());
  await page.open(link);
  await page.identify(person.doc_id);
  await expect(page.page.getByTestId("eid-step")).toBeVisible();
  await expect(page.page.getByTestId("eid-attempts")).toContainText("Intentos restantes: 3");
  return { person, page, processId: id };
}

/** At the provider: its development login form (any password), then its consent form. */
async function signInAtProvider(page: Page, loginName: string) {
  await page.getByRole("button", { name: `Identificarme con ${PROVIDER_NAME}` }).click();
  await page.waitForURL((url) => url.href.startsWith(op.issuer));
  await page.locator('input[name="login"]').fill(loginName);
  await page.locator('input[name="password"]').fill("cualquier-clave");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => !url.href.startsWith(op.issuer));
}

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: the eID path signs with level eid, names from the provider`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { person, page, processId } = await atEidStep(browser, size);
    const loginName = `ana-${label}-${person.doc_id}`;
    op.addAccount(loginName, { document_number: person.doc_id, given_name: "Ana María", family_name: "Quispe Rojas" });
    await signInAtProvider(page.page, loginName);

    await expect(page.page.getByTestId("names-step")).toHaveAttribute("data-source", "eid");
    await expect(page.page.getByLabel("Nombres", { exact: true })).toHaveValue("Ana María");
    await expect(page.page.getByLabel("Nombres", { exact: true })).not.toBeEditable();
    await expect(page.page.getByLabel("Apellidos", { exact: true })).toHaveValue("Quispe Rojas");
    await page.page.screenshot({ path: `e2e/artifacts/screenshots/signer-eid-names-${label}.png`, fullPage: true });
    await page.confirmNames();
    await page.expectReadStep();
    await page.readAndSign();
    // the signed copy passes the independent validator
    const signedPdf = await page.download(/Descargar/);
    const validation = validatePdf(signedPdf, await (await fetch(`${baseUrl}/api/pki/ca.pem`)).text());
    expect(validation.pass, validation.output).toBe(true);

    const listed = await admin.list({ process_id: processId });
    const [signed] = (await listed.json()).signatureProcesses[0].signers;
    expect(signed.sign_data.identity).toMatchObject({ level: "eid", method: "oidc", provider: op.issuer });
    expect(Date.parse(signed.sign_data.identity.at)).not.toBeNaN();
    expect(signed.pinfo).toEqual({ given_name: "Ana María", family_name: "Quispe Rojas" });
  });

  test(`${label}: another person's document number is refused and counts a try`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { person, page } = await atEidStep(browser, size);
    const loginName = `otro-${label}-${person.doc_id}`;
    const otherNumber = String((Number(person.doc_id) + 1) % 100_000_000).padStart(8, "0");
    op.addAccount(loginName, { document_number: otherNumber, given_name: "Pedro", family_name: "Impostor" });
    await signInAtProvider(page.page, loginName);

    await expect(page.page.getByTestId("eid-problem")).toContainText("no coincide con el de este proceso de firma");
    await expect(page.page.getByTestId("eid-attempts")).toContainText("Intentos restantes: 2");
    await page.page.screenshot({ path: `e2e/artifacts/screenshots/signer-eid-other-person-${label}.png`, fullPage: true });
  });
}
