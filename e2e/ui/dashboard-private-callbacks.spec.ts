import http from "node:http";
import type { Page } from "@playwright/test";
import { test, expect, signInAs, unique } from "../fixtures/dashboard";
import { OrganizationPage } from "../pages/organization-page";
import { ProcessDetailPage } from "../pages/process-detail-page";

let receiver: http.Server;
let callbackUrl = "";
const received: string[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
});
test.afterAll(() => receiver?.close());

const receivedFor = (id: string) => received.filter((body) => JSON.parse(body).id === id);

async function expectRefusedDelivery(page: Page, processId: string) {
  const detail = new ProcessDetailPage(page);
  await expect(async () => {
    await page.goto(`/processes/${encodeURIComponent(processId)}`);
    await expect(detail.callbackLog().locator('[data-outcome="failed"]')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  expect(receivedFor(processId)).toHaveLength(0);
}

async function switchOnPlatform(page: Page, allow: boolean) {
  await page.goto("/platform");
  const state = page.getByTestId("private-callbacks-demo.local");
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: `${allow ? "Permitir" : "Prohibir"} callbacks a red privada de demo.local` }).click();
  await expect(state).toHaveText(allow ? "Permitidos" : "Prohibidos");
}

test("private-network callbacks: a tenant owner cannot allow them, even with a forged request; only the platform administrator can, and every change is audited", async ({ adminPage: page, api, browser }) => {
  // a second owner of the organization, who is not a platform administrator
  const owner = { email: `${unique("owner")}@demo.local`, password: "Second-Owner-Password-1" };
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.addStaff(owner.email, owner.password, "owner");
  await expect(page.getByTestId("private-callbacks-state")).toHaveAttribute("data-allowed", "false");

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  try {
    await signInAs(ownerPage, owner.email, owner.password);
    const ownerOrganization = new OrganizationPage(ownerPage);
    await ownerOrganization.open();
    // the attack that worked before: the settings action carrying allowPrivateCallbacks: true
    let forged = 0;
    await ownerPage.route("**/organization", async (route) => {
      const request = route.request();
      if (request.method() !== "POST" || !request.headers()["next-action"]) return route.fallback();
      const args = JSON.parse(request.postData() ?? "[]");
      args[0] = { ...args[0], allowPrivateCallbacks: true };
      forged += 1;
      await route.continue({ postData: JSON.stringify(args) });
    });
    await ownerOrganization.saveSettings();
    await expect(ownerPage.getByRole("status")).toContainText("solo un administrador de la plataforma");
    expect(forged).toBe(1);
    await ownerPage.unroute("**/organization");
    await ownerPage.reload();
    await expect(ownerPage.getByTestId("private-callbacks-state")).toHaveAttribute("data-allowed", "false");
    // the owner has no platform page to do it from
    expect((await ownerPage.goto("/platform"))?.status()).toBe(404);
  } finally {
    await ownerContext.close();
  }

  // still refused: the loopback receiver is never called, and the attempt says so on the process page
  const refusedId = await api.seedProcess({ urlCallback: callbackUrl });
  expect((await api.reject([refusedId])).status).toBe(200);
  await expectRefusedDelivery(page, refusedId);

  await switchOnPlatform(page, true);
  try {
    await page.screenshot({ path: "e2e/artifacts/screenshots/platform-private-callbacks-desktop.png", fullPage: true });
    await organization.open();
    await expect(page.getByTestId("private-callbacks-state")).toHaveAttribute("data-allowed", "true");
    // on: the same receiver gets the callback
    const deliveredId = await api.seedProcess({ urlCallback: callbackUrl });
    expect((await api.reject([deliveredId])).status).toBe(200);
    await expect.poll(() => receivedFor(deliveredId).length, { timeout: 60_000 }).toBe(1);
    expect(JSON.parse(receivedFor(deliveredId)[0]).status).toBe("rejected");
  } finally {
    await switchOnPlatform(page, false);
  }

  await page.goto("/audit");
  const rows = page.getByTestId("audit-row").filter({ hasText: "admin@demo.local" });
  await expect(rows.filter({ hasText: "Callbacks a red privada permitidos" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "Callbacks a red privada prohibidos" }).first()).toBeVisible();
  // newest first: the switch back off is above the switch on
  const actions = await rows.locator('td[title^="organization.private_callbacks"]').evaluateAll((cells) => cells.map((c) => c.getAttribute("title")));
  expect(actions.slice(0, 2)).toEqual(["organization.private_callbacks_refused", "organization.private_callbacks_allowed"]);
  // the owner's forged attempt changed nothing, so it left no "allowed" entry of theirs
  await expect(page.getByTestId("audit-row").filter({ hasText: owner.email }).filter({ hasText: "Callbacks a red privada" })).toHaveCount(0);
});
