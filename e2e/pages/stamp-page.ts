import { expect, type Page } from "@playwright/test";

export type Signer = { names: string; lastNames: string; personId: string };

/** /stamp: upload a PDF, place the stamp box by dragging it, sign, download; and the time-stamp section. */
export class StampPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto("/stamp");
    await expect(this.page.getByRole("heading", { name: "Firma con sello", level: 1 })).toBeVisible();
  }

  sheet() {
    return this.page.getByTestId("stamp-sheet");
  }

  async uploadPdf(file: string) {
    await this.page.getByLabel("Archivo PDF").setInputFiles(file);
    await expect(this.sheet()).toHaveAttribute("data-rendered", "1");
  }

  async choosePage(pageNumber: number) {
    await this.page.getByLabel("Página", { exact: true }).selectOption(String(pageNumber));
    await expect(this.sheet()).toHaveAttribute("data-rendered", "1");
  }

  async uploadImage(file: string) {
    await this.page.getByLabel("Imagen del firmante (JPG o PNG)").setInputFiles(file);
  }

  async fillSigner(signer: Signer) {
    await this.page.getByLabel("Nombres").fill(signer.names);
    await this.page.getByLabel("Apellidos").fill(signer.lastNames);
    await this.page.getByLabel("N.º de documento").fill(signer.personId);
  }

  /** The page as displayed, in points, and how many CSS pixels a point takes on screen. */
  async geometry() {
    const sheet = this.sheet();
    const box = (await sheet.boundingBox())!;
    const width = Number(await sheet.getAttribute("data-page-width"));
    const height = Number(await sheet.getAttribute("data-page-height"));
    return { box, width, height, scale: box.width / width };
  }

  /** Drags the stamp with the mouse so that its top-left corner lands at (left, top) points from the page's top-left. */
  async dragStampTo(left: number, top: number) {
    // the mouse acts inside the viewport only: bring the box (and the empty area near it) on screen
    await this.page.getByTestId("stamp-box").scrollIntoViewIfNeeded();
    const stamp = (await this.page.getByTestId("stamp-box").boundingBox())!;
    const { box, scale } = await this.geometry();
    const grip = { x: stamp.width / 2, y: stamp.height / 2 };
    await this.page.mouse.move(stamp.x + grip.x, stamp.y + grip.y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + left * scale + grip.x, box.y + top * scale + grip.y, { steps: 12 });
    await this.page.mouse.up();
  }

  async position() {
    return {
      x: Number(await this.page.getByLabel("Distancia desde el borde izquierdo (puntos)").inputValue()),
      y: Number(await this.page.getByLabel("Distancia desde el borde inferior (puntos)").inputValue()),
    };
  }

  /** Signs and returns the downloaded PDF's bytes. */
  async signAndDownload(): Promise<Uint8Array> {
    await this.page.getByRole("button", { name: "Firmar PDF" }).click();
    const link = this.page.getByTestId("signed-download");
    await expect(link).toBeVisible({ timeout: 60_000 });
    const [download] = await Promise.all([this.page.waitForEvent("download"), link.click()]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    return new Uint8Array(readFileSync(path));
  }

  async timeStamp(file: string): Promise<Uint8Array> {
    await this.page.getByLabel("Archivo", { exact: true }).setInputFiles(file);
    await this.page.getByRole("button", { name: "Obtener sello de tiempo" }).click();
    const link = this.page.getByTestId("tsr-download");
    await expect(link).toBeVisible();
    const [download] = await Promise.all([this.page.waitForEvent("download"), link.click()]);
    const { readFileSync } = await import("node:fs");
    return new Uint8Array(readFileSync(await download.path()));
  }

  /** The row of the recent stamp signatures list for one transaction. */
  transaction(txToken: string) {
    return this.page.locator(`[data-testid="stamp-transaction"][data-tx-token="${txToken}"]`);
  }
}
