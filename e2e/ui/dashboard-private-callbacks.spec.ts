import http from "node:http";
import { test, expect } from "../fixtures/dashboard";
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

test("private-network callbacks: refused by default, delivered once the owner allows them, every change audited", async ({ adminPage: page, api }) => {
  const organization = new OrganizationPage(page);
  await organization.open();
  const box = page.getByLabel("Permitir callbacks a direcciones de red privada");
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId("private-callbacks-warning")).not.toHaveAttribute("role", "alert");

  // off: the loopback receiver is refused, and the attempt says so on the process page
  const refusedId = await api.seedProcess({ urlCallback: callbackUrl });
  expect((await api.reject([refusedId])).status).toBe(200);
  const detail = new ProcessDetailPage(page);
  await expect(async () => {
    await page.goto(`/processes/${encodeURIComponent(refusedId)}`);
    await expect(detail.callbackLog().locator('[data-outcome="failed"]')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  expect(receivedFor(refusedId)).toHaveLength(0);

  await organization.open();
  await organization.setPrivateCallbacks(true);
  try {
    await expect(page.getByTestId("private-callbacks-warning")).toHaveAttribute("role", "alert");
    await page.screenshot({ path: "e2e/artifacts/screenshots/staff-organization-private-callbacks-desktop.png", fullPage: true });
    // on: the same receiver gets the callback
    const deliveredId = await api.seedProcess({ urlCallback: callbackUrl });
    expect((await api.reject([deliveredId])).status).toBe(200);
    await expect.poll(() => receivedFor(deliveredId).length, { timeout: 60_000 }).toBe(1);
    expect(JSON.parse(receivedFor(deliveredId)[0]).status).toBe("rejected");
  } finally {
    await organization.open();
    await organization.setPrivateCallbacks(false);
  }

  await page.goto("/audit");
  const rows = page.getByTestId("audit-row").filter({ hasText: "admin@demo.local" });
  await expect(rows.filter({ hasText: "Callbacks a red privada permitidos" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "Callbacks a red privada prohibidos" }).first()).toBeVisible();
  // newest first: the switch back off is above the switch on
  const actions = await rows.locator('td[title^="organization.private_callbacks"]').evaluateAll((cells) => cells.map((c) => c.getAttribute("title")));
  expect(actions.slice(0, 2)).toEqual(["organization.private_callbacks_refused", "organization.private_callbacks_allowed"]);
});
