import fs from "node:fs";
import { test, expect, unique, screenshotBoth } from "../fixtures/dashboard";
import { signer } from "../fixtures/process-api-client";
import { ProcessesPage } from "../pages/processes-page";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { NewProcessPage } from "../pages/new-process-page";
import { fixturePath } from "../../test/fixtures-dir";

const fixture = (name: string) => fs.readFileSync(fixturePath("pdfs/valid", name));

test("staff create a process with two signers and two files", async ({ adminPage: page, api }) => {
  const label = unique("alta");
  await api.seedLabel(label);
  const form = new NewProcessPage(page);
  await form.open();
  await form.attach([
    { name: "contrato.pdf", mimeType: "application/pdf", buffer: fixture("libreoffice74-contrato-a4.pdf") },
    { name: "anexo.pdf", mimeType: "application/pdf", buffer: fixture("libreoffice70-tiny.pdf") },
  ]);
  await form.submit();
  await expect(page.getByTestId("signer-0").getByText("doc_id debe tener 8 dígitos para PER")).toBeVisible();

  const [first, second] = [signer(), signer()];
  await form.fillSigner(0, { docId: first.doc_id, alias: "Ana Pérez", email: "ana@example.com" });
  await form.addSigner();
  await form.fillSigner(1, { docId: second.doc_id, alias: "Luis Soto", email: "luis@example.com" });
  await page.getByLabel(label).check();
  await page.getByLabel("Descripción").fill("Contrato de prueba");
  await expect(page.getByTestId("stamp-box")).toHaveCount(2);
  await screenshotBoth(page, "dashboard-new-process");
  await form.submit();

  await expect(page).toHaveURL(/\/processes\/[0-9a-f]{32}/);
  await expect(page.getByTestId("signers-table")).toContainText(`PER:${first.doc_id}`);
  await expect(page.getByTestId("signers-table")).toContainText(`PER:${second.doc_id}`);
  await expect(page.getByRole("link", { name: "Descargar original" })).toHaveCount(2);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Descargar original" }).first().click();
  const saved = fs.readFileSync(await (await download).path());
  expect(saved.equals(fixture("libreoffice74-contrato-a4.pdf"))).toBe(true);
});

test("the list filters by label, signer ID and status, and pages with a cursor", async ({ adminPage: page, api }) => {
  const label = unique("lote");
  await api.seedLabel(label);
  const target = signer();
  const ids = [await api.seedProcess({ labels: [label] }), await api.seedProcess({ labels: [label] }), await api.seedProcess({ labels: [label], signers: [target] })];
  const list = new ProcessesPage(page);
  await list.open({ limit: "2" });
  await list.filter({ label });
  await expect(list.rows()).toHaveCount(2);
  await expect(list.rows().first()).toHaveAttribute("data-process-id", ids[2]);
  await screenshotBoth(page, "dashboard-processes");
  await list.nextPage();
  await expect(list.rows()).toHaveCount(1);
  await expect(list.rows().first()).toHaveAttribute("data-process-id", ids[0]);

  await list.open();
  await list.filter({ docId: target.doc_id });
  await expect(list.rows()).toHaveCount(1);
  await expect(list.rows().first()).toContainText("0/1");

  await list.open({ label });
  await list.filter({ status: "rejected" });
  await expect(page.getByTestId("processes-empty")).toBeVisible();
  // day filters are read in the organization's time zone (America/Lima by default)
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Lima" }).format(new Date());
  await list.open({ label });
  await list.filter({ status: "pending", from: today, to: today });
  await expect(list.rows()).toHaveCount(3);
});

test("staff notify again and reject with a confirmation; the callback log offers a redelivery", async ({ adminPage: page, api }) => {
  const id = await api.seedProcess({ urlCallback: "http://127.0.0.1:9/callback" });
  const detail = new ProcessDetailPage(page);
  await detail.open(id);
  await detail.notify();
  await expect(page.getByRole("status").getByRole("link")).toHaveCount(1);
  await page.reload();
  await expect(detail.timeline().locator('[data-kind="links_issued"]')).toHaveCount(1);

  await detail.reject();
  await expect(detail.status()).toHaveAttribute("data-status", "rejected");
  await expect(page.getByRole("button", { name: "Rechazar proceso" })).toHaveCount(0);
  // the private address is refused by the SSRF guard: one job, one failed attempt
  await expect(async () => {
    await page.reload();
    await expect(detail.callbackLog().locator("tbody tr")).toHaveCount(1);
    await expect(detail.callbackLog().locator('[data-outcome="failed"]').first()).toContainText("falló");
  }).toPass();
  await screenshotBoth(page, "dashboard-process-detail");
  await detail.callbackLog().getByRole("button", { name: "Reenviar callback" }).click();
  await expect(detail.callbackLog().getByRole("status")).toContainText("Callback encolado de nuevo");
  await page.reload();
  await expect(detail.callbackLog().locator("tbody tr")).toHaveCount(2);
});
