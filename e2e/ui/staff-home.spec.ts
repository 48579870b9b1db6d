import { test, expect, unique, signInAs, ADMIN, ORG } from "../fixtures/dashboard";
import { signer, TINY_PDF } from "../fixtures/process-api-client";
import { OrganizationPage } from "../pages/organization-page";
import { auditPage } from "../fixtures/accessibility-audit";

// The staff home as a work queue (issue 39): each count appears once the matching state exists and
// links to its list; a viewer sees the lists without the unlock or redeliver buttons. Identity
// reviews and locked signers need the face models or per-signer links to arise: their counts are
// checked on the use case (lib/staff-home/staff-home.test.ts) against seeded rows.
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];
const count = (page: import("@playwright/test").Page, id: string) => page.getByTestId(`work-${id}`).getAttribute("data-count").then(Number);

for (const size of SIZES) {
  test(`${size.name}: the home counts an approval pending, a process expiring tomorrow and a dead callback, and links to each list`, async ({ adminPage: page, api }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await page.goto("/");
    const before = { approvals: await count(page, "approvals"), expiring: await count(page, "expiring"), callbacks: await count(page, "callbacks") };

    // a process expiring tomorrow with its signers unsigned
    const description = unique("vence-manana");
    const created = await api.create({ signers: [signer()], description, expire: 86_400 }, [{ name: "contrato.pdf", bytes: TINY_PDF() }]);
    expect(created.status).toBe(201);
    const expiringId = (await created.json()).id as string;
    // a callback refused by the SSRF guard dies at once
    const deadId = await api.seedProcess({ urlCallback: "http://127.0.0.1:9/callback" });
    expect((await api.reject([deadId])).status).toBe(200);
    // an approval pending
    const organization = new OrganizationPage(page);
    await organization.open();
    await organization.setRequireApproval(true);
    let approvalId: string;
    try {
      approvalId = await api.seedProcess();
    } finally {
      await organization.open();
      await organization.setRequireApproval(false);
    }

    await page.goto("/");
    await expect.poll(() => count(page, "callbacks"), { timeout: 30_000, message: "the dead callback is counted" }).toBe(before.callbacks + 1);
    await page.reload();
    expect(await count(page, "approvals")).toBe(before.approvals + 1);
    expect(await count(page, "expiring")).toBe(before.expiring + 1);
    await expect(page.getByTestId("expiring-item").filter({ hasText: description })).toContainText("firmantes pendientes: 1");
    const dead = page.locator(`[data-testid="dead-callback-item"][data-process="${deadId}"]`);
    await expect(dead.getByRole("button", { name: "Reenviar callback" })).toBeVisible();
    await auditPage(page, "staff", "home");
    await page.screenshot({ path: `e2e/artifacts/screenshots/staff-home-queue-${size.name}.png`, fullPage: true });

    // each count's link leads to its list, where the item is
    await page.getByTestId("work-approvals").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/approvals$/);
    await expect(page.getByTestId("approval-row").filter({ has: page.locator(`a[href$="${encodeURIComponent(approvalId)}"]`) })).toHaveCount(1);
    await page.goto("/");
    await page.getByTestId("work-expiring").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/#expiring$/);
    await page.getByTestId("expiring-item").filter({ hasText: description }).getByRole("link").click();
    await expect(page.getByTestId("process-id")).toHaveText(expiringId);
    await page.goto("/");
    await page.getByTestId("work-callbacks").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/#callbacks$/);
    await dead.getByRole("link").click();
    await expect(page.getByTestId("callback-log").locator('[data-status="dead"]').first()).toBeVisible();
    if (await page.getByTestId("work-reviews").count()) {
      await page.goto("/");
      await page.getByTestId("work-reviews").getByRole("link").first().click();
      await expect(page).toHaveURL(/\/identity-reviews$/);
    }

    // redelivering from the home takes the callback off the queue
    await page.goto("/");
    // the server action answers before the page leaves (it posts to the page's own address)
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/"),
      dead.getByRole("button", { name: "Reenviar callback" }).click(),
    ]);
    // wait until the redelivery has died too: a job still pending now would die during the next
    // test and add one to the count that test reads as its starting point
    await expect.poll(async () => {
      await page.goto(`/processes/${encodeURIComponent(deadId)}`);
      return page.getByTestId("callback-log").locator('[data-status="dead"]').count();
    }, { timeout: 30_000, message: "the redelivered callback dies too" }).toBe(2);
    await expect(page.getByTestId("callback-log").locator("[data-status]")).toHaveCount(2);
  });
}

test("a viewer sees the queue and the chart, and no unlock or redeliver button", async ({ adminPage: page, api, browser }) => {
  test.setTimeout(120_000);
  const deadId = await api.seedProcess({ urlCallback: "http://127.0.0.1:9/callback" });
  expect((await api.reject([deadId])).status).toBe(200);
  const viewer = { email: `${unique("lector-inicio")}@demo.local`, password: "Viewer-Password-1" };
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.addStaff(viewer.email, viewer.password, "viewer");
  const viewerPage = await (await browser.newContext()).newPage();
  await signInAs(viewerPage, viewer.email, viewer.password);
  for (const size of SIZES) {
    await viewerPage.setViewportSize(size);
    await expect.poll(async () => {
      await viewerPage.goto("/");
      return viewerPage.locator(`[data-testid="dead-callback-item"][data-process="${deadId}"]`).count();
    }, { timeout: 30_000 }).toBe(1);
    await expect(viewerPage.getByTestId("work-approvals")).toHaveCount(0);
    await expect(viewerPage.getByTestId("work-reviews")).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: "Reenviar callback" })).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: "Desbloquear" })).toHaveCount(0);
    await expect(viewerPage.getByTestId("activity-table").locator("tbody tr")).toHaveCount(30);
    await auditPage(viewerPage, "staff", "home (viewer)");
  }
  await organization.removeStaff(viewer.email);
});

test("the chart's table counts today's new process; Acceso API's curl lines get real tokens", async ({ adminPage: page, api, request }) => {
  await page.goto("/");
  const today = page.getByTestId("activity-table").locator("tbody tr").last();
  const createdBefore = Number(await today.locator('[data-series="processesCreated"]').textContent());
  await api.seedProcess();
  await page.reload();
  await expect(today.locator('[data-series="processesCreated"]')).toHaveText(String(createdBefore + 1));

  await page.goto("/api-access");
  const note = page.getByTestId("token-note");
  await expect(note.getByRole("link", { name: "Referencia completa del API" })).toHaveAttribute("href", "/docs/api");
  // each curl line, with the placeholders filled, is a request the server accepts
  for (const [id, values] of [["curl-stamp", { email: ADMIN.email, password: ADMIN.password }], ["curl-process", { clientname: ADMIN.email, password: ADMIN.apiSecret }]] as const) {
    const line = (await note.getByTestId(id).textContent())!;
    const url = line.match(/POST (\S+)/)![1];
    const body = { ...JSON.parse(line.match(/-d '(.+)'$/)![1]), ...values };
    if (id === "curl-process") expect(body.username).toBe(ORG);
    const response = await request.post(url, { data: body });
    expect(response.status(), `${id}: ${line}`).toBe(200);
    expect(JSON.stringify(await response.json())).toMatch(/token/);
  }
});
