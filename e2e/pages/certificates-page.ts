import { expect, type Page } from "@playwright/test";

/** /certificates: holders (enrol, revoke), agent certificate, registry photos, CA downloads, TSA settings. */
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
    // scoped: the registry-photo form on the same page also asks for an "N.º de documento"
    const form = this.page.getByRole("form", { name: "Registrar titular" });
    await form.getByLabel("Usuario del titular").fill(holder.username);
    await form.getByLabel("Contraseña", { exact: true }).fill(holder.password);
    await form.getByLabel("PIN").fill(holder.pin);
    await form.getByLabel("Nombres").fill(holder.names);
    await form.getByLabel("Apellidos").fill(holder.lastNames);
    await form.getByLabel("N.º de documento").fill(holder.personId);
    await form.getByRole("button", { name: "Registrar", exact: true }).click();
    await expect(form.getByRole("status")).toContainText(`Titular ${holder.username} registrado`);
  }

  async revoke(username: string) {
    await this.holder(username).getByRole("button", { name: "Revocar" }).click();
    await this.page.getByRole("dialog", { name: `¿Revocar ${username}?` }).getByRole("button", { name: "Revocar" }).click();
    await expect(this.holder(username)).toContainText("Revocada");
  }

  registrySection() {
    return this.page.locator("#registry-photos");
  }

  registryRow(person: { nat: string; doc_id: string }) {
    return this.page.locator(`[data-testid="registry-photo-row"][data-person="${person.nat}:${person.doc_id}"]`);
  }

  thumbnail(person: { nat: string; doc_id: string }) {
    return this.registryRow(person).getByRole("img", { name: `Foto de registro de ${person.nat} ${person.doc_id}` });
  }

  /** Fills and sends the upload form; the caller checks the outcome (saved, or the error shown). */
  async uploadRegistryPhoto(person: { nat: string; doc_id: string }, file: string) {
    const form = this.page.getByTestId("registry-upload-form");
    await form.getByLabel("Tipo de documento").selectOption(person.nat);
    await form.getByLabel("N.º de documento").fill(person.doc_id);
    await form.getByLabel("Foto (JPEG, PNG o WebP)").setInputFiles(file);
    await form.getByRole("button", { name: "Subir foto" }).click();
  }

  async replaceRegistryPhoto(person: { nat: string; doc_id: string }, file: string) {
    await this.registryRow(person).getByRole("button", { name: "Reemplazar" }).click();
    const dialog = this.page.getByRole("dialog", { name: `Reemplazar la foto de ${person.nat} ${person.doc_id}` });
    await dialog.getByLabel("Foto (JPEG, PNG o WebP)").setInputFiles(file);
    await dialog.getByRole("button", { name: "Subir foto" }).click();
    await expect(dialog).toBeHidden();
  }

  async deleteRegistryPhoto(person: { nat: string; doc_id: string }) {
    await this.registryRow(person).getByRole("button", { name: "Eliminar" }).click();
    await this.page.getByRole("dialog", { name: `¿Eliminar la foto de ${person.nat} ${person.doc_id}?` }).getByRole("button", { name: "Eliminar" }).click();
    await expect(this.registryRow(person)).toHaveCount(0);
  }
}
