import { expect, test } from "../fixtures/browser-test";
import { LoginPage } from "../pages/login-page";

const ADMIN = { email: "admin@demo.local", password: "Admin-Test-Password-1" };

test("the dashboard sends a visitor without a session to the login page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("the admin logs in, sees the dashboard and logs out", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Inicio", level: 1 })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toContainText("admin@demo.local · demo.local");
  await expect(page.getByRole("navigation").getByRole("link", { name: "Procesos" })).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/screenshots/dashboard-home-desktop.png", fullPage: true });

  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(ADMIN.email, "not-the-password");
  await login.expectRefused();
});

test("the empty form explains what is missing", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await page.getByRole("button", { name: "Ingresar" }).click();
  await expect(page.getByText("Este campo es obligatorio.")).toHaveCount(2);
});

test("the language switch turns the dashboard into English", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
  await page.getByRole("button", { name: "Español" }).click();
  await expect(page.getByRole("heading", { name: "Ingresar al panel" })).toBeVisible();
});

test("the dashboard fits a phone screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const login = new LoginPage(page);
  await login.open();
  await page.screenshot({ path: "e2e/artifacts/screenshots/login-phone.png", fullPage: true });
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByRole("heading", { name: "Inicio", level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "e2e/artifacts/screenshots/dashboard-home-phone.png", fullPage: true });
});
