import { expect, type Page } from "@playwright/test";

/** The signer pages opened from a signing link, as a signer uses them (Spanish texts). */
export class SignerPage {
  constructor(readonly page: Page) {}

  async open(link: string) {
    await this.page.goto(link);
    await expect(this.page.getByRole("heading", { level: 1 })).toBeVisible();
  }

  async identify(docId: string, nat = "PER") {
    await this.page.getByLabel("Tipo de documento").selectOption(nat);
    await this.page.getByLabel("Número de documento").fill(docId);
    await this.page.getByRole("button", { name: "Continuar" }).click();
  }

  /** The identification step's second part: names prefilled (from the process or the registry), confirmed or corrected. */
  async confirmNames(names: { given?: string; family?: string; expectPrefilled?: { given: string; family: string } } = {}) {
    await expect(this.page.getByTestId("names-step")).toBeVisible();
    if (names.expectPrefilled) {
      await expect(this.page.getByLabel("Nombres", { exact: true })).toHaveValue(names.expectPrefilled.given);
      await expect(this.page.getByLabel("Apellidos", { exact: true })).toHaveValue(names.expectPrefilled.family);
    }
    if (names.given !== undefined) await this.page.getByLabel("Nombres", { exact: true }).fill(names.given);
    if (names.family !== undefined) await this.page.getByLabel("Apellidos", { exact: true }).fill(names.family);
    await this.page.getByRole("button", { name: "Confirmar y continuar" }).click();
    await expect(this.page.getByTestId("names-step")).toBeHidden();
  }

  async expectWrongId(attemptsLeft: number) {
    await expect(this.page.getByRole("alert").filter({ hasText: "no coincide" })).toContainText(`Intentos restantes: ${attemptsLeft}`);
  }

  facialStep() {
    return this.page.locator("[data-step]");
  }

  async expectFacialStep() {
    await expect(this.facialStep()).toBeVisible();
  }

  /** Chooses the photo of the ID document (a PNG/JPEG file's bytes). */
  async chooseIdDocument(bytes: Uint8Array) {
    await this.page.getByLabel("Foto del frente de su documento de identidad").setInputFiles({ name: "dni.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytes) });
    await expect(this.page.getByTestId("id-document-ready")).toBeVisible();
  }

  async startCamera() {
    await this.page.getByRole("button", { name: "Activar cámara" }).click();
  }

  /**
   * Starts the capture once the camera plays; the (scripted) camera follows the two movements the
   * page asks for. Returns the server's answer (status, reason, attempts left) once it arrives.
   */
  async runChallenge(): Promise<{ status: string; reason?: string; attemptsLeft?: number }> {
    const begin = this.page.getByRole("button", { name: /^(Comenzar|Intentar de nuevo)$/ });
    await expect(begin).toBeEnabled();
    const answer = this.page.waitForResponse((r) => r.url().endsWith("/facial") && r.request().method() === "POST", { timeout: 90_000 });
    await begin.click();
    await expect(this.facialStep()).toHaveAttribute("data-step", "challenge-0");
    const outcome = await (await answer).json();
    console.log(`facial check: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ""}`);
    return outcome;
  }

  async expectFacialFailure(text: RegExp, attemptsLeft: number) {
    await expect(this.page.getByTestId("facial-feedback")).toContainText(text, { timeout: 30_000 });
    await expect(this.page.getByTestId("attempts-left")).toContainText(`Intentos restantes: ${attemptsLeft}`);
  }

  async expectReadStep() {
    await expect(this.page.getByRole("heading", { name: "Lea los documentos" })).toBeVisible({ timeout: 30_000 });
  }

  signButton() {
    return this.page.getByRole("button", { name: /^Firmar/ });
  }

  /** Every page slot of every document, in reading order. */
  pageSlots() {
    return this.page.locator(".pdf-viewer .pdf-page[data-page-index]");
  }

  /** Waits until every document's viewer has parsed its file (all page slots exist). */
  async expectDocumentsLoaded() {
    const viewers = this.page.locator(".pdf-viewer");
    await expect(viewers.first()).toBeVisible({ timeout: 30_000 });
    await expect(this.page.locator('.pdf-viewer:not([data-loaded="1"])')).toHaveCount(0, { timeout: 30_000 });
  }

  /** The reading step's record: pages shown on this screen, pages in all, and whether the server holds every one. */
  async readingProgress(): Promise<{ shown: number; total: number; recorded: boolean }> {
    const progress = this.page.getByTestId("reading-progress");
    return {
      shown: Number(await progress.getAttribute("data-shown")),
      total: Number(await progress.getAttribute("data-total")),
      recorded: (await progress.getAttribute("data-recorded")) === "1",
    };
  }

  /** Brings page slots `from`..`to` (0-based over all documents) into the middle of the screen one by one, waiting until each is proven shown. */
  async readPages(from: number, to: number) {
    for (let i = from; i <= to; i++) {
      const slot = this.pageSlots().nth(i);
      await slot.evaluate((element) => element.scrollIntoView({ block: "center" }));
      await expect(slot).toHaveAttribute("data-shown", "1", { timeout: 30_000 });
    }
  }

  /** Scrolls through every page as a reader does; signing is enabled once the server recorded them all. */
  async readEveryPage() {
    await this.expectDocumentsLoaded();
    await this.readPages(0, (await this.pageSlots().count()) - 1);
    await expect(this.page.getByTestId("reading-progress")).toHaveAttribute("data-recorded", "1", { timeout: 30_000 });
    await expect(this.signButton()).toBeEnabled();
  }

  async readAndSign() {
    await this.readEveryPage();
    await this.signButton().click();
    await expect(this.page.getByTestId("signed-receipt")).toBeVisible({ timeout: 60_000 });
  }

  async expectProblem(reason: string, title: string) {
    await expect(this.page.locator(`[data-reason="${reason}"]`)).toBeVisible();
    await expect(this.page.getByRole("heading", { level: 1 })).toHaveText(title);
  }

  async download(name: RegExp): Promise<Uint8Array> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.page.getByRole("link", { name }).first().click()]);
    const file = await download.path();
    const { readFile } = await import("node:fs/promises");
    return new Uint8Array(await readFile(file!));
  }

  async screenshot(name: string, fullPage = true) {
    await this.page.screenshot({ path: `e2e/artifacts/screenshots/${name}.png`, fullPage });
  }
}
