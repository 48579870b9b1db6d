import { test, expect, unique } from "../fixtures/dashboard";
import { OrganizationPage } from "../pages/organization-page";

// A zone whose calendar day differs from UTC's right now: UTC-11 before 11:00 UTC, UTC+14 from 10:00 UTC.
function zoneOnAnotherDay(now: Date): { zone: string; offsetLabel: string } {
  return now.getUTCHours() < 11 ? { zone: "Pacific/Pago_Pago", offsetLabel: "GMT-11" } : { zone: "Pacific/Kiritimati", offsetLabel: "GMT+14" };
}
const dayIn = (zone: string, date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);

test("dates are shown in the organization's time zone, and day filters are read in it across a day boundary", async ({ adminPage: page, api }) => {
  const organization = new OrganizationPage(page);
  await organization.open();
  await expect(page.getByLabel("Zona horaria")).toHaveValue("America/Lima");

  const label = unique("zona");
  await api.seedLabel(label);
  const before = new Date();
  const id = await api.seedProcess({ labels: [label] });
  const after = new Date();
  const { zone, offsetLabel } = zoneOnAnotherDay(before);
  const localDay = dayIn(zone, before);
  const utcDay = dayIn("UTC", before);
  test.skip(dayIn(zone, after) !== localDay || dayIn("UTC", after) !== utcDay, "the process was created across midnight; run again");
  expect(localDay).not.toBe(utcDay);

  // the default zone: Lima, with its offset spelled out
  await page.goto(`/processes?label=${label}`);
  await expect(page.getByTestId("process-row")).toHaveCount(1);
  await expect(page.getByTestId("process-row").first()).toContainText("(GMT-5)");
  await expect(page.getByTestId("zone-note")).toHaveText("Fechas en la zona horaria America/Lima.");

  await organization.open();
  await organization.setTimeZone(zone);
  try {
    await page.goto(`/processes?label=${label}`);
    const row = page.locator(`[data-testid="process-row"][data-process-id="${id}"]`);
    await expect(row).toContainText(`(${offsetLabel})`);
    await expect(page.getByTestId("zone-note")).toHaveText(`Fechas en la zona horaria ${zone}.`);
    // the process belongs to the zone's day, not to UTC's
    await page.goto(`/processes?label=${label}&from=${localDay}&to=${localDay}`);
    await expect(row).toBeVisible();
    await page.goto(`/processes?label=${label}&from=${utcDay}&to=${utcDay}`);
    await expect(page.getByTestId("processes-empty")).toBeVisible();
    // the detail page and its timeline use the same zone
    await page.goto(`/processes/${encodeURIComponent(id)}`);
    await expect(page.getByTestId("timeline").locator("time").first()).toContainText(`(${offsetLabel})`);
    await expect(page.getByTestId("timeline").locator('[data-kind="created"]')).toContainText("admin@demo.local creó el proceso.");
  } finally {
    await organization.open();
    await organization.setTimeZone("America/Lima");
  }
});
