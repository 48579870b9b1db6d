import { test, expect, unique, screenshotBoth } from "../fixtures/dashboard";
import { LabelsPage } from "../pages/labels-page";

test("staff create, rename and delete a label after confirming", async ({ adminPage: page, api }) => {
  const labels = new LabelsPage(page);
  const name = unique("Etiqueta");
  await labels.open();
  await labels.create(name);
  await expect(labels.row(name)).toBeVisible();
  expect((await api.labels({ limit: "100" }).then((r) => r.json())).labels.map((l: { label: string }) => l.label)).toContain(name);

  const renamed = `${name}-2`;
  await labels.rename(name, renamed);
  await expect(labels.row(renamed)).toBeVisible();
  await expect(labels.row(name)).toHaveCount(0);
  await screenshotBoth(page, "dashboard-labels");

  await labels.delete(renamed);
  await expect(labels.row(renamed)).toHaveCount(0);
  const after = (await api.labels({ limit: "100" }).then((r) => r.json())).labels.map((l: { label: string }) => l.label);
  expect(after).not.toContain(renamed);
});

test("the label list pages with a cursor", async ({ adminPage: page, api }) => {
  const prefix = unique("zz-pagina");
  for (const n of [1, 2, 3]) await api.seedLabel(`${prefix}-${n}`);
  const labels = new LabelsPage(page);
  await labels.open("?limit=2");
  const first = await page.getByTestId("label-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-label")));
  expect(first).toHaveLength(2);
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/after=/);
  const second = await page.getByTestId("label-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-label")));
  expect(second.some((l) => first.includes(l))).toBe(false);
});
