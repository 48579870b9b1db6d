import type { Browser, BrowserContext, Page } from "@playwright/test";
import { ADMIN, expect, signInAs, test } from "../fixtures/dashboard";
import { ADMIN_EMAIL, ADMIN_API_SECRET, ORG_DOMAIN } from "../fixtures/start-test-server";
import { login, processApi, signer } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { facePhoto, uploadRegistryPhoto } from "../fixtures/signer-documents";
import { ProcessDetailPage } from "../pages/process-detail-page";
import { SignerPage } from "../pages/signer-page";

// A signer locked by three failed facial checks (another person's face against the registry photo)
// is unlocked by staff on the process page, gets three new tries and signs; the earlier tries stay
// on the timeline. The signer and the staff member each at phone and at desktop size.

test.beforeAll(() => {
  posesOf("A"); // made once, before any page waits on it
  posesOf("B");
});

async function withCamera(browser: Browser, person: "A" | "B", from: BrowserContext, size: typeof PHONE | typeof DESKTOP): Promise<SignerPage> {
  const context = await browser.newContext({ ...size, storageState: await from.storageState() });
  await useScriptedCamera(context, posesOf(person));
  return new SignerPage(await context.newPage());
}

async function unlockOnProcessPage(page: Page, processId: string, natDocId: string) {
  const detail = new ProcessDetailPage(page);
  await detail.open(processId);
  const row = detail.signerRow(natDocId);
  await expect(row.getByTestId("signer-locked")).toContainText("Bloqueado");
  await row.getByRole("button", { name: "Desbloquear" }).click();
  const dialog = page.getByRole("dialog", { name: `¿Desbloquear a ${natDocId}?` });
  await expect(dialog).toContainText("3 intentos nuevos");
  await dialog.getByRole("button", { name: "Desbloquear" }).click();
  await expect(page.getByTestId("signer-change-outcome")).toContainText(`${natDocId} desbloqueado`);
  await expect(row.getByTestId("signer-locked")).toHaveCount(0);
  await expect(page.getByTestId("timeline").locator('[data-kind="signer_unlocked"]')).toContainText(`${ADMIN.email} desbloqueó`);
  // every earlier try is still on the timeline
  await expect(page.getByTestId("timeline").locator('[data-kind="facial_recorded"]')).toHaveCount(3);
}

for (const [signerLabel, signerSize, staffLabel, staffSize] of [
  ["phone", PHONE, "desktop", DESKTOP],
  ["desktop", DESKTOP, "phone", PHONE],
] as const) {
  test(`signer on ${signerLabel}, staff on ${staffLabel}: a signer locked by failed facial checks is unlocked and signs`, async ({ browser, page, baseURL }) => {
    test.setTimeout(420_000);
    const token = await login(baseURL!, ORG_DOMAIN, ADMIN_EMAIL, ADMIN_API_SECRET);
    const person = signer({ signChallenges: ["facial"] });
    expect((await uploadRegistryPhoto(baseURL!, token, person, facePhoto("person-a-obama/a1-id-portrait-413x531.jpg"))).status).toBe(201);
    const created = await processApi(baseURL!, token).create({ signers: [person], description: "Desbloqueo de firmante" });
    expect(created.status).toBe(201);
    const { id, msg: link } = (await created.json()) as { id: string; msg: string };

    const identity = await browser.newContext(signerSize);
    const start = new SignerPage(await identity.newPage());
    await start.open(link);
    await start.identify(person.doc_id);
    await start.confirmNames({ given: "Ana", family: "Soto" });
    await start.expectFacialStep();

    // someone else's face, three times: the signer is locked
    const impostor = await withCamera(browser, "B", identity, signerSize);
    await impostor.open(link);
    await impostor.startCamera();
    for (const left of [2, 1]) {
      expect(await impostor.runChallenge()).toMatchObject({ status: "failed", attemptsLeft: left });
    }
    expect(await impostor.runChallenge()).toMatchObject({ status: "locked", attemptsLeft: 0 });
    await impostor.expectProblem("locked", "Acceso bloqueado");

    await page.setViewportSize(staffSize.viewport);
    await signInAs(page, ADMIN.email, ADMIN.password);
    await unlockOnProcessPage(page, id, `${person.nat}:${person.doc_id}`);
    await page.screenshot({ path: `e2e/artifacts/screenshots/process-signer-unlocked-${staffLabel}.png`, fullPage: true });

    // the signer's own face now: three tries again, and the signature
    const own = await withCamera(browser, "A", identity, signerSize);
    await own.open(link);
    await own.expectFacialStep();
    await expect(own.page.getByTestId("attempts-left")).toContainText("Intentos restantes: 3");
    await own.startCamera();
    expect(await own.runChallenge()).toMatchObject({ status: "passed" });
    await own.expectReadStep();
    await own.readAndSign();
    await page.reload();
    await expect(new ProcessDetailPage(page).signerRow(`${person.nat}:${person.doc_id}`)).toContainText("Firmó");
  });
}
