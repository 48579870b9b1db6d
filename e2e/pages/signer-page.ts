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

  async expectWrongId(attemptsLeft: number) {
    await expect(this.page.getByRole("alert").filter({ hasText: "no coincide" })).toContainText(`Intentos restantes: ${attemptsLeft}`);
  }

  facialStep() {
    return this.page.locator("[data-challenge]");
  }

  async challenge(): Promise<"turn-left" | "turn-right"> {
    await expect(this.facialStep()).toBeVisible();
    return (await this.facialStep().getAttribute("data-challenge")) as "turn-left" | "turn-right";
  }

  async startCamera() {
    await this.page.getByRole("button", { name: "Activar cámara" }).click();
  }

  /**
   * Starts the challenge as soon as the camera plays (the fake clip starts its start pose with the
   * camera) and returns the server's answer (status, reason, attempts left) once it arrives.
   */
  async runChallenge(): Promise<{ status: string; reason?: string; attemptsLeft?: number }> {
    const begin = this.page.getByRole("button", { name: /^(Comenzar|Intentar de nuevo)$/ });
    await expect(begin).toBeEnabled();
    const answer = this.page.waitForResponse((r) => r.url().endsWith("/facial") && r.request().method() === "POST", { timeout: 60_000 });
    await begin.click();
    await expect(this.page.getByTestId("selfie-instruction")).toContainText(/gire la cabeza/i);
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

  async confirmReadAndSign() {
    await this.page.getByLabel(/He leído (el documento|los documentos)/).check();
    await this.page.getByRole("button", { name: /^Firmar/ }).click();
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
