import { expect, test, type Browser, type Page } from "../fixtures/browser-test";
import { identityLevelPolicyOids } from "@/lib/identity-assurance/identity-level";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { ADMIN_EMAIL, ADMIN_PASSWORD, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { signInAs } from "../fixtures/dashboard";
import { firstSignatureCertificatesText } from "../fixtures/independent-validators";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { ApiAccessPage } from "../pages/api-access-page";
import { SignerPage } from "../pages/signer-page";

// A face match against the signer's own ID photo never signs by itself (issue 25): the signer waits
// "under review", a staff member decides in the dashboard queue, and only an approval produces the
// signature, whose certificate then names the document-reviewed level. OCR and face models run per
// try on a shared machine: generous limits.
let integration: ProcessApi;
const CARD_PORTRAIT = "person-a-obama/a1-id-portrait-413x531.jpg";

// The processes come from an integration's own credential, as in production: the staff member who
// reviews did not create them, so separation of duties (check-reviewer-independence.ts) lets them
// approve however many other reviewers earlier specs added to the organization.
test.beforeAll(async ({ baseURL, browser }) => {
  posesOf("A");
  const staff = await browser.newPage();
  await signInAs(staff, ADMIN_EMAIL, ADMIN_PASSWORD);
  const access = new ApiAccessPage(staff);
  await access.open();
  const clientname = `integracion-${Date.now().toString(36)}@${ORG_DOMAIN}`;
  const secret = await access.createCredential(clientname, "operator");
  await staff.close();
  integration = processApi(baseURL!, await login(baseURL!, ORG_DOMAIN, clientname, secret));
});

type Size = typeof PHONE | typeof DESKTOP;

/** A signer whose live face matched a made-up card bearing their number: the page says "under review". */
async function underReview(browser: Browser, size: Size) {
  const person = signer();
  const created = await integration.create({ signers: [person], description: "Identidad con DNI en revisión" });
  expect(created.status).toBe(201);
  const { id, msg: link } = (await created.json()) as { id: string; msg: string };
  const identity = await browser.newContext(size);
  const start = new SignerPage(await identity.newPage());
  await start.open(link);
  await start.identify(person.doc_id);
  await start.confirmNames({ given: "Ana", family: "Soto" });
  await start.expectFacialStep();
  const device = await browser.newContext({ ...size, storageState: await identity.storageState() });
  await useScriptedCamera(device, posesOf("A"), "live");
  const page = new SignerPage(await device.newPage());
  await page.open(link);
  await page.chooseIdDocument(photographCard({ portrait: CARD_PORTRAIT, docNumber: person.doc_id, unmarked: true }));
  await page.startCamera();
  // the page sends the card when the capture starts, to be read while the signer moves
  const cardAhead = page.page.waitForResponse((response) => response.url().endsWith("/facial/id-document"));
  expect(await page.runChallenge()).toMatchObject({ status: "under_review", attemptsLeft: 2 });
  expect(await (await cardAhead).json()).toEqual({ success: true, received: true });
  await page.expectReadStep();
  await expect(page.page.getByTestId("identity-under-review")).toContainText("Su identidad está en revisión");
  return { person, id, link, page };
}

/** The reviewer's queue at the same screen size, on the entry for this signer. */
async function reviewEntry(browser: Browser, size: Size, docId: string): Promise<Page> {
  const staff = await (await browser.newContext(size)).newPage();
  await signInAs(staff, ADMIN_EMAIL, ADMIN_PASSWORD);
  await staff.goto("/identity-reviews");
  const entry = staff.locator(`[data-testid="identity-review"][data-signer-doc="${docId}"]`);
  await expect(entry).toBeVisible();
  for (const picture of ["card", "portrait", "selfie"]) {
    await expect(entry.getByTestId(`review-${picture}`)).toHaveJSProperty("complete", true);
    expect(await entry.getByTestId(`review-${picture}`).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  // when OCR read the MRZ (it says ANA MARIA; the signer confirmed Ana), the reviewer is told; without it the number came from the printed text
  if ((await entry.getByTestId("review-mrz").count()) > 0) await expect(entry.getByTestId("review-name-differences")).toContainText("nombres");
  return staff;
}

for (const [label, size] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
  test(`${label}: the ID-photo path ends under review; staff approve; the signature exists with the document-reviewed policy`, async ({ browser }) => {
    test.setTimeout(420_000);
    const { person, id, page } = await underReview(browser, size);
    await page.readEveryPage();
    await page.signButton().click();
    await page.expectProblem("identity_under_review", "Su identidad está en revisión");
    await page.screenshot(`identity-under-review-${label}`);

    const staff = await reviewEntry(browser, size, person.doc_id);
    await expect(staff.locator(`[data-signer-doc="${person.doc_id}"]`).getByTestId("review-sign-requested")).toBeVisible();
    await staff.locator(`[data-signer-doc="${person.doc_id}"]`).getByTestId("review-approve").click();
    // decided: the entry leaves the queue
    await expect(staff.locator(`[data-signer-doc="${person.doc_id}"]`)).toHaveCount(0);

    // the approval queued the signature: the signer's page becomes the receipt
    await expect(async () => {
      await page.page.reload();
      await expect(page.page.getByTestId("signed-receipt")).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 180_000 });
    const record = (await (await integration.list({ process_id: id })).json()) as { signatureProcesses: { status: string; documents: { url: string }[]; signers: { sign_data: { identity?: { level: string } } }[] }[] };
    const process = record.signatureProcesses[0];
    expect(process.status).toBe("signed");
    expect(process.signers[0].sign_data.identity).toMatchObject({ level: "document-reviewed", reviewedBy: ADMIN_EMAIL });
    const pdf = Buffer.from(await (await fetch(process.documents[0].url)).arrayBuffer());
    expect(firstSignatureCertificatesText(pdf)).toContain(`Policy: ${identityLevelPolicyOids["document-reviewed"]}`);
    // the process page names the level
    await staff.goto(`/processes/${encodeURIComponent(id)}`);
    await expect(staff.getByTestId("identity-level").first()).toContainText("Documento revisado");
  });

  test(`${label}: a rejected review counts a try and the signer reads why`, async ({ browser }) => {
    test.setTimeout(300_000);
    const { person, page } = await underReview(browser, size);
    const staff = await reviewEntry(browser, size, person.doc_id);
    const entry = staff.locator(`[data-signer-doc="${person.doc_id}"]`);
    await entry.getByTestId("review-reason").fill("El documento no parece auténtico");
    await entry.getByTestId("review-reject").click();
    await expect(entry).toHaveCount(0);

    await page.page.reload();
    await page.expectFacialStep();
    await expect(page.page.getByTestId("review-rejected")).toContainText("El documento no parece auténtico");
    await expect(page.page.getByTestId("attempts-left")).toContainText("Intentos restantes: 2");
    await page.screenshot(`identity-review-rejected-${label}`);
  });
}
