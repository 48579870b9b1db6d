import { expect, test } from "@playwright/test";
import { fixture, StampApiClient } from "../fixtures/stamp-api-client";
import { screenshotBoth } from "../fixtures/dashboard";
import { VerifyPage } from "../pages/verify-page";

async function signThroughStampApi(baseUrl: string): Promise<Uint8Array> {
  const api = new StampApiClient(baseUrl);
  await api.login();
  const response = await api.signPdf({}, { pdf: fixture("pdfs/valid/libreoffice70-tiny.pdf") });
  const body = await response.json();
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ success: true });
  return new Uint8Array(Buffer.from(body.signed_pdf, "base64"));
}

test("anyone verifies a PDF signed here as valid and trusted, and a tampered PDF as failed", async ({ page, baseURL }) => {
  const signed = await signThroughStampApi(baseURL!);
  const verify = new VerifyPage(page);
  await verify.open();

  await verify.upload("firmado.pdf", signed);
  const ours = verify.signatures().first();
  await expect(ours.getByTestId("verify-verdict")).toHaveText("Firma válida");
  await expect(ours.getByTestId("verify-integrity")).toContainText("Íntegra");
  await expect(ours.getByTestId("verify-chain")).toHaveText("Emitido por nuestra CA");
  await screenshotBoth(page, "verify-valid");

  await verify.upload("alterado.pdf", fixture("pdfs/signed-by-others/signed-tampered-digest-mismatch.pdf"));
  await expect(verify.signatures()).toHaveCount(1);
  await expect(verify.signatures().getByTestId("verify-verdict")).toHaveText("Firma no válida");
  await expect(verify.signatures().getByTestId("verify-integrity")).toContainText("no coincide");
  await screenshotBoth(page, "verify-tampered");

  await verify.upload("no-es-pdf.pdf", new TextEncoder().encode("this is not a PDF"));
  await expect(page.getByRole("alert").filter({ hasText: "no es un PDF válido" })).toBeVisible();
});
