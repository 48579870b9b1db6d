import { test, expect, type BrowserContext } from "../fixtures/browser-test";

// e2e/fixtures/browser-test.ts: a context a test opens and leaves open is closed when the test ends,
// and a context opened in beforeAll stays for the file's tests. The tests of a file run in order in
// one worker (playwright.config.ts: one worker, not fully parallel), so the second test sees the first's.
let shared: BrowserContext;
let leftOpen: BrowserContext;

test.beforeAll(async ({ browser }) => {
  shared = await browser.newContext();
});
test.afterAll(async () => {
  await shared.close();
});

test("a test opens a context and a page and leaves them open", async ({ browser }) => {
  leftOpen = await browser.newContext();
  await (await leftOpen.newPage()).setContent("<p>abierta</p>");
  expect(browser.contexts()).toContain(leftOpen);
});

test("the next test finds that context closed, and the file's shared context still open", async ({ browser }) => {
  expect(leftOpen, "the first test ran in this worker").toBeDefined();
  expect(browser.contexts()).not.toContain(leftOpen);
  expect(leftOpen.pages()).toHaveLength(0);
  expect(browser.contexts()).toContain(shared);
  await (await shared.newPage()).setContent("<p>compartida</p>");
});
