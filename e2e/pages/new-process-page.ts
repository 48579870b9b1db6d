import { expect, type Page } from "@playwright/test";

export type NewSigner = { docId: string; alias?: string; email?: string };

/** /processes/new: files, signers, options, submit with upload progress. */
export class NewProcessPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/processes/new");
    await expect(this.page.getByRole("heading", { name: "Nuevo proceso" })).toBeVisible();
  }

  async attach(files: { name: string; mimeType: string; buffer: Buffer }[]) {
    await this.page.getByLabel(/Elija uno o más PDF/).setInputFiles(files);
  }

  async fillSigner(index: number, signer: NewSigner) {
    const card = this.page.getByTestId(`signer-${index}`);
    await card.getByLabel("Número de documento").fill(signer.docId);
    if (signer.alias) await card.getByLabel("Nombre o alias").fill(signer.alias);
    if (signer.email) await card.getByLabel("Correo o WhatsApp").fill(signer.email);
  }

  /** A signer's identity choice ("Ninguna", "Validación facial", "Identidad digital (eID)"). */
  identityChoice(index: number, label: string) {
    return this.page.getByTestId(`signer-${index}-identity`).getByLabel(label, { exact: true });
  }

  eidHelp(index: number) {
    return this.page.getByTestId(`signer-${index}-eid-help`);
  }

  async addSigner() {
    await this.page.getByRole("button", { name: "Agregar firmante" }).click();
  }

  async submit() {
    await this.page.getByRole("button", { name: "Crear proceso" }).click();
  }
}
