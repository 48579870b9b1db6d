import { expect, type Page } from "@playwright/test";

/** /processes/[id]: facts, actions, signers, timeline and callback log. */
export class ProcessDetailPage {
  constructor(private readonly page: Page) {}

  async open(processId: string) {
    await this.page.goto(`/processes/${encodeURIComponent(processId)}`);
    await expect(this.page.getByTestId("process-id")).toHaveText(processId);
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

  timeline() {
    return this.page.getByTestId("timeline");
  }

  callbackLog() {
    return this.page.getByTestId("callback-log");
  }
}
