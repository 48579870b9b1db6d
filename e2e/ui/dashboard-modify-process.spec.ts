import { test, expect, unique, screenshotBoth, signInAs } from "../fixtures/dashboard";
import { signer, type ProcessApi } from "../fixtures/process-api-client";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { OrganizationPage } from "../pages/organization-page";

type ListedSigner = { nat: string; doc_id: string; signerAlias: string; contactInfo: { type: string; value: string } | null };
type Listed = { description: string; signers: ListedSigner[] };

async function listed(api: ProcessApi, processId: string): Promise<Listed> {
  const response = await api.list({ process_id: processId });
  expect(response.status).toBe(200);
  return (await response.json()).signatureProcesses[0];
}

test("staff change the description, edit a signer's contact and remove a signer after confirming", async ({ adminPage: page, api }) => {
  const [first, second] = [signer(), signer()];
  const processId = await api.seedProcess({ signers: [first, second] });
  const [a, b] = [`PER:${first.doc_id}`, `PER:${second.doc_id}`];
  const detail = new ProcessDetailPage(page);
  await detail.open(processId);
  await expect(detail.modifyCard()).toContainText("no permite agregar firmantes");

  const description = unique("Contrato modificado");
  await detail.saveDescription(description);
  await expect(page.locator("dl.facts")).toContainText(description);

  // the schema of the API validates the dialog before anything is sent
  let dialog = await detail.editSigner(a, { contactType: "email", contact: "no-es-correo" });
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog.getByText("e-mail inválido")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();

  dialog = await detail.editSigner(a, { alias: "Ana Pérez", contactType: "whatsapp", contact: "+51987654321" });
  await screenshotBoth(page, "dashboard-process-modify-dialog");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.signerOutcome()).toContainText(`Firmante ${a} actualizado.`);
  await expect(detail.signerRow(a)).toContainText("WhatsApp +51987654321");
  await expect(detail.signerRow(a)).toContainText("Ana Pérez");
  await screenshotBoth(page, "dashboard-process-modify");

  // cancelling the confirmation changes nothing
  await detail.signerRow(b).getByRole("button", { name: "Quitar" }).click();
  await page.getByRole("dialog", { name: `¿Quitar a ${b} del proceso?` }).getByRole("button", { name: "Cancelar" }).click();
  await expect(detail.signerRows()).toHaveCount(2);

  await detail.removeSigner(b);
  await expect(detail.signerRows()).toHaveCount(1);
  // the last signer cannot be removed: a process is never left without signers
  await expect(detail.signerRow(a).getByRole("button", { name: "Quitar" })).toHaveCount(0);
  await expect(detail.signerRow(a).getByRole("button", { name: `Editar ${a}` })).toBeVisible();

  const record = await listed(api, processId);
  expect(record.description).toBe(description);
  expect(record.signers).toHaveLength(1);
  expect(record.signers[0]).toMatchObject({ doc_id: first.doc_id, signerAlias: "Ana Pérez", contactInfo: { type: "whatsapp", value: "+51987654321" } });

  await page.reload();
  await expect(detail.timeline().locator('[data-kind="modified"]')).toHaveCount(3);
  await expect(detail.timeline().locator('[data-kind="modified"]').first()).toContainText("admin@demo.local");
  // the same audit entries as the process API path, attributed to the staff member
  await page.goto("/audit");
  const entries = page.getByTestId("audit-row").filter({ hasText: "Proceso modificado" }).filter({ hasText: processId });
  await expect(entries).toHaveCount(3);
  await expect(entries.first()).toContainText("admin@demo.local");
});

test("a viewer sees no modify controls and the server refuses the action anyway", async ({ adminPage: page, api, browser }) => {
  const original = unique("proceso");
  const processId = await api.seedProcess({ description: original });
  const viewer = { email: `${unique("lector")}@demo.local`, password: "Viewer-Password-1" };
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.addStaff(viewer.email, viewer.password, "viewer");

  // capture the server action as the dashboard sends it, to replay it with the viewer's session
  const detail = new ProcessDetailPage(page);
  await detail.open(processId);
  const sent = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await detail.saveDescription(original + " (admin)");
  const action = await sent;

  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signInAs(viewerPage, viewer.email, viewer.password);
  const viewerDetail = new ProcessDetailPage(viewerPage);
  await viewerDetail.open(processId);
  await expect(viewerDetail.modifyCard()).toHaveCount(0);
  await expect(viewerPage.getByRole("button", { name: /^Editar / })).toHaveCount(0);
  await expect(viewerPage.getByRole("button", { name: "Quitar" })).toHaveCount(0);
  await expect(viewerPage.getByRole("columnheader", { name: "Acciones" })).toHaveCount(0);

  const replay = await viewerPage.request.post(action.url(), {
    headers: {
      "next-action": action.headers()["next-action"],
      "content-type": action.headers()["content-type"],
      accept: "text/x-component",
      origin: new URL(action.url()).origin,
    },
    data: JSON.stringify([{ process_id: processId, description: "cambiado por un lector" }]),
  });
  expect(await replay.text()).toContain("No tiene permiso para esta operación.");
  expect((await listed(api, processId)).description).toBe(original + " (admin)");
  await context.close();
});
