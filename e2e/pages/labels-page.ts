import { expect, type Page } from "@playwright/test";

/** /labels: create, rename, delete (with confirmation) and paging. */
export class LabelsPage {
  constructor(private readonly page: Page) {}

  async open(query = "") {
    await this.page.goto(`/labels${query}`);
    await expect(this.page.getByRole("heading", { name: "Etiquetas", level: 1 })).toBeVisible();
  }

  row(label: string) {
    return this.page.locator(`[data-testid="label-row"][data-label="${label}"]`);
  }

  async create(label: string) {
    await this.page.getByLabel("Nombre", { exact: true }).fill(label);
    await this.page.getByRole("button", { name: "Crear etiqueta" }).click();
    await expect(this.page.getByRole("status")).toContainText(`Etiqueta ${label} creada`);
  }

  async rename(from: string, to: string) {
    await this.row(from).getByRole("button", { name: `Renombrar ${from}` }).click();
    await this.row(from).getByLabel(`Nuevo nombre para ${from}`).fill(to);
    await this.row(from).getByRole("button", { name: "Guardar" }).click();
  }

  async delete(label: string) {
    await this.row(label).getByRole("button", { name: "Eliminar" }).click();
    const dialog = this.page.getByRole("dialog", { name: `¿Eliminar la etiqueta ${label}` });
    await dialog.getByRole("button", { name: "Eliminar" }).click();
  }
}
