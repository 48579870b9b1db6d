import { test, expect, unique, screenshotBoth, signInAs, ORG } from "../fixtures/dashboard";
import { ApiAccessPage } from "../pages/api-access-page";
import { OrganizationPage } from "../pages/organization-page";

const loginWith = (request: import("@playwright/test").APIRequestContext, clientname: string, password: string) =>
  request.post("/api/auth/login", { data: { username: ORG, clientname, password } });

test("an admin creates a credential that works at once, then revokes it", async ({ adminPage: page }) => {
  const access = new ApiAccessPage(page);
  const clientname = `${unique("integracion")}@demo.local`;
  await access.open();
  const secret = await access.createCredential(clientname, "operator");
  const login = await loginWith(page.request, clientname, secret);
  expect(login.status()).toBe(200);
  expect((await login.json()).access_token).toBeTruthy();
  await expect(access.row(clientname)).toContainText("Operador");
  await screenshotBoth(page, "dashboard-api-access");

  await access.revoke(clientname);
  expect((await loginWith(page.request, clientname, secret)).status()).toBe(404);
});

test("removing an admin revokes the credentials they created, except one the owner keeps in the dialog with a new secret shown once", async ({ adminPage: page, browser }) => {
  const organization = new OrganizationPage(page);
  const admin = { email: `${unique("saliente")}@demo.local`, password: "Leaving-Admin-Pass-1" };
  await organization.open();
  await organization.addStaff(admin.email, admin.password, "admin");
  const context = await browser.newContext();
  const adminPage = await context.newPage();
  await signInAs(adminPage, admin.email, admin.password);
  const access = new ApiAccessPage(adminPage);
  const [dropped, kept] = [`${unique("ci-baja")}@demo.local`, `${unique("ci-sigue")}@demo.local`];
  await access.open();
  const droppedSecret = await access.createCredential(dropped, "operator");
  await access.open();
  const keptSecret = await access.createCredential(kept, "operator");
  await context.close();

  await organization.open();
  // the dialog lists what the person created (closed, so read as text)
  await expect(organization.staffRow(admin.email).getByTestId("created-credentials")).toContainText(dropped);
  const secrets = await organization.removeStaffKeeping(admin.email, [kept]);
  expect(secrets[kept]).not.toBe(keptSecret);
  expect((await loginWith(page.request, dropped, droppedSecret)).status()).toBe(404);
  expect((await loginWith(page.request, kept, keptSecret)).status()).toBe(404);
  expect((await loginWith(page.request, kept, secrets[kept])).status()).toBe(200);
});

test("a viewer is refused creation and rejection, even by URL, and loses access when removed", async ({ adminPage: page, api, browser }) => {
  const processId = await api.seedProcess();
  const organization = new OrganizationPage(page);
  const viewer = { email: `${unique("lector")}@demo.local`, password: "Viewer-Password-1" };
  await organization.open();
  await organization.addStaff(viewer.email, viewer.password, "viewer");
  await screenshotBoth(page, "dashboard-organization");

  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signInAs(viewerPage, viewer.email, viewer.password);
  await viewerPage.goto("/processes/new");
  await expect(viewerPage).toHaveURL(/\/forbidden$/);
  await expect(viewerPage.getByText("Su rol no permite usar esta sección")).toBeVisible();
  await screenshotBoth(viewerPage, "dashboard-forbidden");
  await viewerPage.goto("/api-access");
  await expect(viewerPage).toHaveURL(/\/forbidden$/);
  await viewerPage.goto(`/processes/${encodeURIComponent(processId)}`);
  await expect(viewerPage.getByTestId("process-id")).toHaveText(processId);
  await expect(viewerPage.getByRole("button", { name: "Rechazar proceso" })).toHaveCount(0);
  // the upload route checks the permission on the server, whatever the page showed
  const upload = await viewerPage.request.put("/api/dashboard/processes", { multipart: { signers: "[]" } });
  expect(upload.status()).toBe(403);

  await organization.removeStaff(viewer.email);
  await viewerPage.goto("/processes");
  await expect(viewerPage).toHaveURL(/\/login$/);
  await context.close();
});

test("with approval required, a new process waits in the approvals inbox until approved", async ({ adminPage: page, api }) => {
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.setRequireApproval(true);
  try {
    const processId = await api.seedProcess();
    await page.goto("/approvals");
    const row = page.getByTestId("approval-row").filter({ has: page.locator(`a[href$="${encodeURIComponent(processId)}"]`) });
    await expect(row).toHaveCount(1);
    await screenshotBoth(page, "dashboard-approvals");
    await row.getByRole("button", { name: "Aprobar" }).click();
    await expect(row).toHaveCount(0);
    await page.goto(`/processes/${encodeURIComponent(processId)}`);
    await expect(page.locator(".page-head [data-status]")).toHaveAttribute("data-status", "pending");
  } finally {
    await organization.open();
    await organization.setRequireApproval(false);
  }
});
