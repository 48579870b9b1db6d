import { expect, type Page } from "@playwright/test";

/** /processes/[id]: facts, actions, modification, signers, timeline and callback log. */
export class ProcessDetailPage {
  constructor(private readonly page: Page) {}

  async open(processId: string) {
    await this.page.goto(`/processes/${encodeURIComponent(processId)}`);
    await expect(this.page.getByTestId("process-id")).toHaveText(processId);
  }

  /** Downloads the signed evidence summary from the link on the page. */
  async downloadEvidenceSummary(): Promise<{ name: string; bytes: Uint8Array }> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.page.getByRole("link", { name: "Descargar resumen de evidencias (PDF firmado)" }).click()]);
    const { readFile } = await import("node:fs/promises");
    return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile((await download.path())!)) };
  }

  status() {
    return this.page.locator(".page-head [data-status]");
  }

  async notify() {
    await this.page.getByRole("button", { name: "Notificar de nuevo" }).click();
    await expect(this.page.getByRole("status")).toContainText("Enlaces nuevos emitidos");
  }

  async reject() {
    await this.page.getByRole("button", { name: "Rechazar proceso" }).click();
    const dialog = this.page.getByRole("dialog", { name: "¿Rechazar este proceso?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Sí, rechazar" }).click();
  }

  /** The "Modificar proceso" card; absent on closed processes and for roles without processes:modify. */
  modifyCard() {
    return this.page.getByTestId("modify-process");
  }

  async saveDescription(text: string) {
    await this.modifyCard().getByLabel("Descripción").fill(text);
    await this.modifyCard().getByRole("button", { name: "Guardar descripción" }).click();
    await expect(this.modifyCard().getByRole("status")).toHaveText("Descripción actualizada.");
  }

  /** A signers-table row by `<nat>:<doc_id>`. */
  signerRow(natDocId: string) {
    return this.page.locator(`[data-testid="signers-table"] tr[data-signer="${natDocId}"]`);
  }

  signerRows() {
    return this.page.locator('[data-testid="signers-table"] tbody tr');
  }

  signerOutcome() {
    return this.page.getByTestId("signer-change-outcome");
  }

  /** Opens the edit dialog of a signer and fills what is given; the caller saves or cancels. */
  async editSigner(natDocId: string, changes: { alias?: string; contactType?: "email" | "whatsapp" | ""; contact?: string }) {
    await this.signerRow(natDocId).getByRole("button", { name: `Editar ${natDocId}` }).click();
    const dialog = this.page.getByRole("dialog", { name: `Editar firmante ${natDocId}` });
    await expect(dialog).toBeVisible();
    if (changes.alias !== undefined) await dialog.getByLabel("Nombre o alias").fill(changes.alias);
    if (changes.contactType !== undefined) await dialog.getByLabel("Medio de contacto").selectOption(changes.contactType);
    if (changes.contact !== undefined) await dialog.getByLabel("Correo o WhatsApp").fill(changes.contact);
    return dialog;
  }

  async removeSigner(natDocId: string) {
    await this.signerRow(natDocId).getByRole("button", { name: "Quitar" }).click();
    const dialog = this.page.getByRole("dialog", { name: `¿Quitar a ${natDocId} del proceso?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Sí, quitar" }).click();
    await expect(this.signerOutcome()).toHaveText(`Firmante ${natDocId} quitado del proceso.`);
    await expect(this.signerRow(natDocId)).toHaveCount(0);
  }

  timeline() {
    return this.page.getByTestId("timeline");
  }

  callbackLog() {
    return this.page.getByTestId("callback-log");
  }
}
