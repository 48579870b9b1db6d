import { test, expect, unique, screenshotBoth } from "../fixtures/dashboard";
import { CertificatesPage } from "../pages/certificates-page";

test("an admin enrols a certificate holder with the built-in CA and revokes it", async ({ adminPage: page }) => {
  const certificates = new CertificatesPage(page);
  const username = unique("titular");
  await certificates.open();
  await expect(page.getByTestId("tsa-settings")).toContainText("TSA integrada");
  await certificates.enrollBuiltIn({ username, password: "Holder-Password-1", pin: "4321", names: "Ana", lastNames: "Pérez Soto", personId: "45678912" });
  await expect(certificates.holder(username)).toContainText("Ana");
  await expect(certificates.holder(username)).toContainText("Activa");
  await screenshotBoth(page, "dashboard-certificates");
  await certificates.revoke(username);
  const ca = await page.request.get("/api/pki/ca.pem");
  expect(await ca.text()).toContain("BEGIN CERTIFICATE");
});
