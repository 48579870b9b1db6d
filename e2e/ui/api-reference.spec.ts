import { test, expect } from "../fixtures/browser-test";

test("the API reference renders from our own server with every other origin blocked, and Try it calls the same server", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  await page.context().route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    foreign.push(url);
    return route.abort("blockedbyclient");
  });
  await page.goto("/docs/api");
  // the document's title and an operation, as Scalar renders them from /api/openapi.json
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByRole("heading", { name: /FirmaViva/ }).first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: "e2e/artifacts/screenshots/api-reference-desktop.png" });

  // "Try it" on the stamp-API token with the empty example body: the request reaches this server,
  // and the API's own answer (400 naming the field) is shown in the client
  const answered = page.waitForResponse((r) => r.url() === `${origin}/api/auth/token` && r.request().method() === "POST");
  await reference.getByRole("button", { name: "Test Request (post /api/auth/token)" }).click();
  await page.getByRole("button", { name: /^Send/ }).first().click();
  const response = await answered;
  expect(response.status()).toBe(400);
  await expect(page.getByText("email es obligatorio").first()).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/screenshots/api-reference-try-it-desktop.png" });
  // our configuration applies (a second, default copy would offer "Ask AI" and a link to the hosted client)
  await expect(page.getByRole("button", { name: "Ask AI" })).toHaveCount(0);
  await expect(page.locator('a[href*="client.scalar.com"]')).toHaveCount(0);
  expect(foreign, "requests to other origins").toEqual([]);

  // the same page on a phone (390 px), for docs/screenshots
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs/api");
  await expect(reference.getByRole("heading", { name: /FirmaViva/ }).first()).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: "e2e/artifacts/screenshots/api-reference-phone.png" });
  expect(foreign, "requests to other origins").toEqual([]);
});
