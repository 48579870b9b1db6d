import fs from "node:fs";
import path from "node:path";
import { test, expect } from "../fixtures/dashboard";
import { englishOnlyWords, pageWords, visibleWordsScript } from "../fixtures/catalogue-words";

// Every page of the staff layout, found on disk so that a new page is checked without editing this list.
const staffDir = path.join(__dirname, "..", "..", "app", "(staff)");
function staffPages(dir = staffDir, prefix = ""): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return staffPages(path.join(dir, entry.name), `${prefix}/${entry.name}`);
    return entry.name === "page.tsx" ? [prefix || "/"] : [];
  });
}

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];
const english = englishOnlyWords();
const RAW_JSON = /[{[]\s*"[\w.]+"\s*:/;

test("every staff page fits 390 and 1280 px, and shows no raw JSON or English labels in Spanish", async ({ adminPage: page, api }) => {
  test.setTimeout(300_000);
  expect(english.size, "the catalogue yields English-only words to look for").toBeGreaterThan(50);
  // a process with a rejected callback, so the detail page shows its timeline and callback log
  const id = await api.seedProcess({ urlCallback: "http://127.0.0.1:9/callback" });
  expect((await api.reject([id])).status).toBe(200);
  const pages = staffPages().map((p) => p.replace("[id]", encodeURIComponent(id)));
  expect(pages).toEqual(expect.arrayContaining(["/", "/processes", "/organization", "/verification", "/platform", "/audit"]));

  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const url of pages) {
      await test.step(`${url} at ${size.width} px`, async () => {
        await page.goto(url);
        await expect(page.locator("main h1, main h2").first()).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${url} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
        const text = await page.evaluate(visibleWordsScript);
        expect(text, `${url} shows raw JSON`).not.toMatch(RAW_JSON);
        const untranslated = [...new Set(pageWords(text).filter((w) => english.has(w)))];
        expect(untranslated, `${url} shows English words on a Spanish page`).toEqual([]);
        const name = url === "/" ? "home" : url.slice(1).replaceAll("/", "-").replace(encodeURIComponent(id), "detail");
        await page.screenshot({ path: `e2e/artifacts/screenshots/staff-${name}-${size.name}.png`, fullPage: true });
      });
    }
  }
});

test("on a phone the navigation is a drawer behind the Menú button, and following a link closes it", async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Menú" });
  const processes = nav.getByRole("link", { name: "Procesos", exact: true });
  await expect(processes).toBeHidden();
  await nav.getByRole("button", { name: "Menú" }).click();
  await expect(processes).toBeVisible();
  await page.screenshot({ path: "e2e/artifacts/screenshots/staff-menu-open-phone.png" });
  await processes.click();
  await expect(page).toHaveURL(/\/processes$/);
  await expect(processes).toBeHidden();
  await expect(nav.getByRole("button", { name: "Menú" })).toHaveAttribute("aria-expanded", "false");
});

test("Verificar opens inside the staff layout, with the navigation still there", async ({ adminPage: page }) => {
  await page.goto("/");
  await page.getByRole("navigation").getByRole("link", { name: "Verificar" }).click();
  await expect(page).toHaveURL(/\/verification$/);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Procesos", exact: true })).toBeVisible();
});

test("at 390 px the top bar keeps its own height on every staff page, however short the page", async ({ adminPage: page, api }) => {
  test.setTimeout(180_000);
  const id = await api.seedProcess();
  await page.setViewportSize({ width: 390, height: 844 });
  const heights: Record<string, { header: number; bar: number }> = {};
  for (const url of staffPages().map((p) => p.replace("[id]", encodeURIComponent(id)))) {
    await page.goto(url);
    await expect(page.locator("main h1, main h2").first()).toBeVisible();
    // the bar's own height: its row (brand and Menú) plus the header's padding and border
    heights[url] = await page.locator("nav.shell-nav").evaluate((nav) => {
      const style = getComputedStyle(nav);
      const edges = ["paddingTop", "paddingBottom", "borderTopWidth", "borderBottomWidth"] as const;
      const bar = nav.querySelector(".nav-bar")!.getBoundingClientRect().height + edges.reduce((sum, edge) => sum + parseFloat(style[edge]), 0);
      return { header: nav.getBoundingClientRect().height, bar };
    });
  }
  console.log(`header heights at 390 px: ${JSON.stringify(heights)}`);
  for (const [url, { header, bar }] of Object.entries(heights)) {
    expect(header, `${url}: the header is ${header} px tall, its bar ${bar} px`).toBeLessThanOrEqual(bar + 0.5);
  }
});
