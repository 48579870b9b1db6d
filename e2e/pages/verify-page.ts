import { expect, type Page } from "@playwright/test";

/** The public /verify page: upload a signed PDF, read the report. */
export class VerifyPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/verify");
    await expect(this.page.getByRole("heading", { name: "Verificar un PDF firmado" })).toBeVisible();
  }

  async upload(name: string, bytes: Uint8Array) {
    await this.page.getByLabel("Archivo PDF firmado").setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(bytes) });
    await this.page.getByRole("button", { name: "Verificar" }).click();
  }

  signatures() {
    return this.page.getByTestId("verify-signature");
  }
}
