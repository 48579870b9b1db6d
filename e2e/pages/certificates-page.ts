import { expect, type Page } from "@playwright/test";

/** /certificates: holders (enrol, revoke), agent certificate, CA downloads, TSA settings. */
export class CertificatesPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/certificates");
    await expect(this.page.getByRole("heading", { name: "Certificados", level: 1 })).toBeVisible();
  }

  holder(username: string) {
    return this.page.locator(`[data-testid="holder-row"][data-username="${username}"]`);
  }

  async enrollBuiltIn(holder: { username: string; password: string; pin: string; names: string; lastNames: string; personId: string }) {
    await this.page.getByLabel("sign_username").fill(holder.username);
    await this.page.getByLabel("Contraseña", { exact: true }).fill(holder.password);
    await this.page.getByLabel("PIN").fill(holder.pin);
    await this.page.getByLabel("Nombres").fill(holder.names);
    await this.page.getByLabel("Apellidos").fill(holder.lastNames);
    await this.page.getByLabel("N.º de documento").fill(holder.personId);
    await this.page.getByRole("button", { name: "Registrar", exact: true }).click();
    await expect(this.page.getByRole("status")).toContainText(`Titular ${holder.username} registrado`);
  }

  async revoke(username: string) {
    await this.holder(username).getByRole("button", { name: "Revocar" }).click();
    await this.page.getByRole("dialog", { name: `¿Revocar ${username}?` }).getByRole("button", { name: "Revocar" }).click();
    await expect(this.holder(username)).toContainText("Revocada");
  }
}
