import { expect, test } from "../fixtures/browser-test";
import { LoginPage } from "../pages/login-page";

const ADMIN = { email: "admin@demo.local", password: "Admin-Test-Password-1" };

test("a platform administrator creates, suspends and reactivates an organization", async ({ page, browser }) => {
  const domain = `org${Date.now()}.pe`;
  const owner = { email: `owner@${domain}`, password: "Owner-Password-1" };
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(ADMIN.email, ADMIN.password);
  await page.getByRole("navigation").getByRole("link", { name: "Plataforma" }).click();
  await page.getByLabel("Dominio").fill(domain);
  await page.getByLabel("Nombre visible").fill("Organización de prueba");
  await page.getByLabel("Correo del propietario").fill(owner.email);
  await page.getByLabel("Contraseña inicial del propietario").fill(owner.password);
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page.getByRole("status")).toContainText(`Organización ${domain} creada`);
  const row = page.getByTestId(`org-${domain}`);
  await expect(row).toContainText("Activa");
  await page.screenshot({ path: "e2e/artifacts/screenshots/platform-desktop.png", fullPage: true });

  // the new owner can sign in, and sees no platform menu
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const ownerLogin = new LoginPage(ownerPage);
  await ownerLogin.open();
  await ownerLogin.signIn(owner.email, owner.password);
  await expect(ownerPage.getByTestId("signed-in-as")).toContainText(domain);
  await expect(ownerPage.getByRole("navigation").getByRole("link", { name: "Plataforma" })).toHaveCount(0);
  expect((await ownerPage.goto("/platform"))?.status()).toBe(404);

  page.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: `Suspender ${domain}` }).click();
  await expect(row).toContainText("Suspendida");

  // suspension acts at once: the owner's open session is gone
  await ownerPage.goto("/");
  await expect(ownerPage).toHaveURL(/\/login$/);
  await ownerLogin.signIn(owner.email, owner.password);
  await ownerLogin.expectRefused();

  await row.getByRole("button", { name: `Reactivar ${domain}` }).click();
  await expect(row).toContainText("Activa");
  await ownerLogin.signIn(owner.email, owner.password);
  await expect(ownerPage.getByTestId("signed-in-as")).toContainText(domain);
  await ownerContext.close();
});
