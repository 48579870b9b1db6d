import { expect, type Page } from "@playwright/test";

/** /api-access: process-API credentials, stamp-API users, callback secret. */
export class ApiAccessPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/api-access");
    await expect(this.page.getByRole("heading", { name: "Acceso API", level: 1 })).toBeVisible();
  }

  row(clientname: string) {
    return this.page.locator(`[data-testid="credential-row"][data-clientname="${clientname}"]`);
  }

  /** Creates a credential and returns the secret shown once. */
  async createCredential(clientname: string, role: "admin" | "operator" | "viewer"): Promise<string> {
    await this.page.getByLabel("clientname (con forma de e-mail)").fill(clientname);
    await this.page.getByLabel("Rol", { exact: true }).selectOption(role);
    await this.page.getByRole("button", { name: "Crear credencial" }).click();
    const secret = this.page.getByTestId("new-secret");
    await expect(secret).toBeVisible();
    return (await secret.textContent())!.trim();
  }

  async revoke(clientname: string) {
    await this.row(clientname).getByRole("button", { name: "Revocar" }).click();
    await this.page.getByRole("dialog", { name: `¿Revocar ${clientname}?` }).getByRole("button", { name: "Revocar" }).click();
    await expect(this.row(clientname)).toContainText("Revocada");
  }
}
