import { test, expect, signInAs, unique } from "../fixtures/dashboard";
import { OrganizationPage } from "../pages/organization-page";

test("a session cookie copied before sign-out is worthless after it", async ({ adminPage: page, browser }) => {
  const cookies = await page.context().cookies();
  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login$/);
  // an attacker replays the cookie they copied
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const stolen = await replay.newPage();
  await stolen.goto("/processes");
  await expect(stolen).toHaveURL(/\/login$/);
  await replay.close();
});

test("a password change ends every session; the new password works, a common one is refused", async ({ adminPage, browser }) => {
  const person = { email: `${unique("cambio")}@demo.local`, password: "Primera-Clave-Larga-1" };
  const organization = new OrganizationPage(adminPage);
  await organization.open();
  await organization.addStaff(person.email, person.password, "operator");

  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await signInAs(firstPage, person.email, person.password);
  const second = await browser.newContext();
  const page = await second.newPage();
  await signInAs(page, person.email, person.password);

  await page.getByRole("link", { name: "Mi cuenta" }).click();
  await page.getByLabel("Contraseña actual").fill(person.password);
  await page.getByLabel(/Nueva contraseña/).fill("password1234");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "demasiado común" })).toBeVisible();

  await page.getByLabel(/Nueva contraseña/).fill("Segunda-Clave-Larga-2");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Contraseña cambiada" })).toBeVisible();
  // both sessions ended: the other browser is sent to the login page on its next request
  await firstPage.goto("/processes");
  await expect(firstPage).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await signInAs(page, person.email, "Segunda-Clave-Larga-2");
  await first.close();
  await second.close();
});

test("the owner resets a staff member's password, which ends that member's session", async ({ adminPage, browser }) => {
  const person = { email: `${unique("olvido")}@demo.local`, password: "Clave-Olvidada-123" };
  const organization = new OrganizationPage(adminPage);
  await organization.open();
  await organization.addStaff(person.email, person.password, "viewer");
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, person.email, person.password);

  const row = organization.staffRow(person.email);
  await row.getByLabel(`Nueva contraseña para ${person.email}`).fill("Clave-Nueva-Del-Dueño-4");
  await row.getByRole("button", { name: "Restablecer" }).click();
  await expect(row.getByRole("status")).toContainText("restablecida");

  await page.goto("/processes");
  await expect(page).toHaveURL(/\/login$/);
  await signInAs(page, person.email, "Clave-Nueva-Del-Dueño-4");
  await context.close();
});
