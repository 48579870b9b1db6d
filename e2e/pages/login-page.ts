import { expect, type Page } from "@playwright/test";

/** The staff login screen, as a person sees it. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/login");
    await expect(this.page.getByRole("heading", { level: 1 })).toBeVisible();
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("Correo electrónico").fill(email);
    await this.page.getByLabel("Contraseña").fill(password);
    await this.page.getByRole("button", { name: "Ingresar" }).click();
  }

  async expectRefused() {
    await expect(this.page.getByRole("alert").filter({ hasText: "Correo o contraseña incorrectos." })).toBeVisible();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
