import type { Browser } from "@playwright/test";
import { test, expect, unique, screenshotBoth, signInAs, ADMIN, ORG } from "../fixtures/dashboard";
import { login, signer } from "../fixtures/process-api-client";
import { facePhoto, uploadRegistryPhoto } from "../fixtures/signer-documents";
import { CertificatesPage } from "../pages/certificates-page";
import { OrganizationPage } from "../pages/organization-page";
import { fixturePath } from "../../test/fixtures-dir";

const PORTRAIT = facePhoto("person-a-obama/a1-id-portrait-413x531.jpg");
const OTHER_PORTRAIT = facePhoto("person-b-biden/b1-id-portrait-413x531.jpg");
const NO_FACE = facePhoto("no-face/no-face-chandelier-480x640.jpg");
const GIF = fixturePath("images/unsupported-portrait.gif");

/** A PER person nobody else in this run uses. */
const person = () => ({ nat: "PER", doc_id: String(signer().doc_id) });

test("an admin uploads a registry photo, sees it with a thumbnail, replaces it, is told why bad photos fail, and deletes it", async ({ adminPage: page, baseURL }) => {
  test.setTimeout(120_000);
  const certificates = new CertificatesPage(page);
  const token = await login(baseURL!, ORG, ADMIN.email, ADMIN.apiSecret);
  const someone = person();
  await certificates.open();

  await certificates.uploadRegistryPhoto(someone, PORTRAIT);
  await expect(certificates.registrySection().getByRole("status")).toContainText(`Foto registrada: PER ${someone.doc_id}`);
  await expect(certificates.registryRow(someone)).toContainText(someone.doc_id);
  const thumbnail = certificates.thumbnail(someone);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const firstSrc = (await thumbnail.getAttribute("src"))!;
  const served = await page.request.get(firstSrc);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/jpeg");
  expect(served.headers()["cache-control"]).toContain("no-store");

  // the process API sees the dashboard's photo: uploading for the same person replaces it (200, not 201)
  const viaApi = await uploadRegistryPhoto(baseURL!, token, someone, OTHER_PORTRAIT);
  expect(viaApi.status).toBe(200);
  expect(await viaApi.json()).toMatchObject({ replaced: true });

  await page.reload();
  await certificates.replaceRegistryPhoto(someone, PORTRAIT);
  await expect(certificates.registryRow(someone)).toHaveCount(1);
  await expect(certificates.thumbnail(someone)).not.toHaveAttribute("src", firstSrc);

  // a GIF is refused in the browser by the same schema the server uses; nothing is listed
  const gif = person();
  await certificates.uploadRegistryPhoto(gif, GIF);
  await expect(certificates.registrySection().getByText("la imagen debe ser JPEG, PNG o WebP")).toBeVisible();
  // a JPEG without a face passes the type check and is refused by the server's face analysis
  const noFace = person();
  await certificates.uploadRegistryPhoto(noFace, NO_FACE);
  await expect(certificates.registrySection().getByRole("alert")).toContainText("No se detectó ningún rostro en la imagen.");
  await expect(certificates.registryRow(gif)).toHaveCount(0);
  await expect(certificates.registryRow(noFace)).toHaveCount(0);

  await screenshotBoth(page, "dashboard-registry-photos");

  await certificates.deleteRegistryPhoto(someone);
  expect((await page.request.get(firstSrc)).status()).toBe(404);
  // and the process API no longer has it: the same upload is new again (201)
  const again = await uploadRegistryPhoto(baseURL!, token, someone, PORTRAIT);
  expect(again.status).toBe(201);
  await page.reload();
  await certificates.deleteRegistryPhoto(someone);
});

/** A new organization created by the platform administrator through /platform; returns its owner. */
async function seedOrganization(browser: Browser, baseURL: string) {
  const domain = `${unique("reg")}.pe`;
  const owner = { email: `owner@${domain}`, password: "Owner-Password-R-1" };
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAs(page, ADMIN.email, ADMIN.password);
  await page.goto("/platform");
  await page.getByLabel("Dominio").fill(domain);
  await page.getByLabel("Nombre visible").fill(`Organización ${domain}`);
  await page.getByLabel("Correo del propietario").fill(owner.email);
  await page.getByLabel("Contraseña inicial del propietario").fill(owner.password);
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page.getByRole("status")).toContainText(`Organización ${domain} creada`);
  await context.close();
  return owner;
}

test("registry photos are served only to this organization's staff with biometrics:read", async ({ adminPage: page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const certificates = new CertificatesPage(page);
  const someone = person();
  expect((await uploadRegistryPhoto(baseURL!, await login(baseURL!, ORG, ADMIN.email, ADMIN.apiSecret), someone, PORTRAIT)).status).toBe(201);
  await certificates.open();
  const src = (await certificates.thumbnail(someone).getAttribute("src"))!;

  const viewer = { email: `${unique("lector")}@demo.local`, password: "Viewer-Password-1" };
  const organization = new OrganizationPage(page);
  await organization.open();
  await organization.addStaff(viewer.email, viewer.password, "viewer");
  const owner = await seedOrganization(browser, baseURL!);

  for (const [who, status] of [[viewer, 403], [owner, 404]] as const) {
    const context = await browser.newContext({ baseURL });
    const other = await context.newPage();
    await signInAs(other, who.email, who.password);
    expect((await other.request.get(src)).status(), who.email).toBe(status);
    if (who === owner) {
      // a fresh organization: the empty state, and nothing of demo.local
      await new CertificatesPage(other).open();
      await expect(other.getByTestId("registry-empty")).toBeVisible();
      await expect(other.locator("#registry-photos")).not.toContainText(someone.doc_id);
    }
    await context.close();
  }
  const anonymous = await browser.newContext({ baseURL });
  expect((await anonymous.request.get(src)).status()).toBe(401);
  await anonymous.close();

  await certificates.open();
  await certificates.deleteRegistryPhoto(someone);
});
