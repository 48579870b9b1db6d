import { expect, test } from "../fixtures/browser-test";
import { appendRevision, edited, nextObjectNumber, streamBody, view } from "@/lib/verification/testing/forge-pdf";
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

/** The attacker's move: new page text in an unsigned revision appended to a genuine signed file. */
function withNewPageText(signed: Uint8Array): Uint8Array {
  const { page, pageRef } = view(signed);
  const n = nextObjectNumber(signed);
  return appendRevision(signed, [
    // a bar as well as the text: /F1 may be missing from the page, and then the text alone draws nothing
    { num: n, body: streamBody("0 g 72 380 300 40 re f BT /F1 24 Tf 72 400 Td (Pagar 1.000.000) Tj ET") },
    { num: pageRef.objectNumber, body: edited(page, { Contents: `${n} 0 R` }) },
  ]);
}

test("anyone verifies a PDF signed here as valid, sees a later change named, and a tampered PDF as failed", async ({ page, baseURL }) => {
  const signed = await signThroughStampApi(baseURL!);
  const verify = new VerifyPage(page);
  await verify.open();

  await verify.upload("firmado.pdf", signed);
  await expect(page.getByTestId("verify-overall")).toHaveText("Todas las firmas son válidas y el documento no cambió después de firmarse.");
  const ours = verify.signatures().first();
  await expect(ours.getByTestId("verify-verdict")).toHaveText("Firma válida");
  await expect(ours.getByTestId("verify-integrity")).toContainText("Íntegra");
  await expect(ours.getByTestId("verify-chain")).toHaveText("Certificado de una entidad de confianza");
  await expect(ours.getByTestId("verify-level")).toHaveText(/^B-(T|LT|LTA)$/);
  await expect(ours.getByTestId("verify-allowed")).toContainText("datos de validación (DSS)");
  await screenshotBoth(page, "verify-valid");

  await verify.upload("modificado.pdf", withNewPageText(signed));
  await expect(page.getByTestId("verify-overall")).toHaveText(/cambió después de firmarse\. Revise los cambios\./);
  const changed = verify.signatures().first();
  await expect(changed.getByTestId("verify-verdict")).toHaveText("Firma válida, pero el documento cambió después");
  await expect(changed.getByTestId("verify-changes")).toContainText("contenido de una página");
  await expect(changed.getByTestId("verify-changes")).toContainText(/Revisión \d+/);
  await screenshotBoth(page, "verify-changed");

  await verify.upload("alterado.pdf", fixture("pdfs/signed-by-others/signed-tampered-digest-mismatch.pdf"));
  await expect(verify.signatures()).toHaveCount(1);
  await expect(page.getByTestId("verify-overall")).toHaveText("Al menos una firma no es válida: no confíe en este documento.");
  await expect(verify.signatures().getByTestId("verify-verdict")).toHaveText("Firma no válida");
  await expect(verify.signatures().getByTestId("verify-integrity")).toContainText("no coincide");
  await screenshotBoth(page, "verify-tampered");

  await verify.upload("no-es-pdf.pdf", new TextEncoder().encode("this is not a PDF"));
  await expect(page.getByRole("alert").filter({ hasText: "no es un PDF válido" })).toBeVisible();
});
