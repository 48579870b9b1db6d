import { expect, type Page } from "@playwright/test";

/** /processes: filters, rows and paging, as a person uses them. */
export class ProcessesPage {
  constructor(private readonly page: Page) {}

  rows() {
    return this.page.getByTestId("process-row");
  }

  async open(query: Record<string, string> = {}) {
    await this.page.goto(`/processes?${new URLSearchParams(query)}`);
    await expect(this.page.getByRole("heading", { name: "Procesos de firma" })).toBeVisible();
  }

  async filter(values: { status?: string; label?: string; docId?: string; from?: string; to?: string }) {
    if (values.status !== undefined) await this.page.getByLabel("Estado").selectOption(values.status);
    if (values.label !== undefined) await this.page.getByLabel("Etiqueta").fill(values.label);
    if (values.docId !== undefined) await this.page.getByLabel("N.º de documento del firmante").fill(values.docId);
    if (values.from !== undefined) await this.page.getByLabel("Creado desde").fill(values.from);
    if (values.to !== undefined) await this.page.getByLabel("Creado hasta").fill(values.to);
    await this.page.getByRole("button", { name: "Filtrar" }).click();
    await this.page.waitForURL(/\/processes\?/);
  }

  async nextPage() {
    const before = this.page.url();
    await this.page.getByTestId("next-page").click();
    await this.page.waitForURL((url) => url.toString() !== before);
  }
}
