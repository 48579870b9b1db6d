import { test, expect, screenshotBoth, signInAs, ADMIN } from "../fixtures/dashboard";
import { LoginPage } from "../pages/login-page";

test("an admin sees their failed and successful logins in the audit log, and the chain verifies", async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(ADMIN.email, "Wrong-Password-1");
  await login.expectRefused();
  await signInAs(page, ADMIN.email, ADMIN.password);

  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Auditoría" })).toBeVisible();
  await expect(page.getByTestId("audit-chain")).toHaveText(/^La cadena de auditoría es íntegra \(\d+ entradas\)$/);
  const rows = page.getByTestId("audit-row");
  const mine = (action: string) => rows.filter({ hasText: ADMIN.email }).filter({ has: page.getByText(action, { exact: true }) });
  await expect(mine("Ingreso al panel").first()).toBeVisible();
  await expect(mine("Ingreso fallido").first()).toBeVisible();
  await screenshotBoth(page, "dashboard-audit");
});
