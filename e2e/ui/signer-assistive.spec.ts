import type { Locator, Page } from "@playwright/test";
import { test, expect } from "../fixtures/dashboard";
import { signer, TINY_PDF, type ProcessApi } from "../fixtures/process-api-client";
import { PHONE, DESKTOP } from "../fixtures/camera-browser";
import { posesOf, useScriptedCamera } from "../fixtures/scripted-camera";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { SignerPage } from "../pages/signer-page";

// Issue 30, item 5: the signer flow with the keyboard alone (visible focus at every stop), and a
// camera step that a screen reader follows (text for every instruction, status changes announced).

async function signerLink(api: ProcessApi, person: Record<string, unknown>) {
  const created = await api.create({ signers: [person], description: "Contrato de prueba" }, [{ name: "contrato.pdf", bytes: TINY_PDF() }]);
  expect(created.status, await created.clone().text()).toBe(201);
  return ((await created.json()) as { msg: string }).msg;
}

/** The focused element's ring: drawn (outline or box-shadow), and its contrast against what surrounds the element. */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { element: "body", focusVisible: false, drawn: false, contrast: 0 };
    const style = getComputedStyle(element);
    const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    // the ring sits outside the element (outline-offset), over the first opaque background around it
    let around = element.parentElement;
    while (around && (rgb(getComputedStyle(around).backgroundColor)[3] === 0 || getComputedStyle(around).backgroundColor === "transparent")) around = around.parentElement;
    const background = rgb(around ? getComputedStyle(around).backgroundColor : "rgb(255, 255, 255)");
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
    const [light, dark] = [luminance(rgb(style.outlineColor)), luminance(background)].sort((a, b) => b - a);
    return {
      element: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} ${(element.textContent ?? "").trim().slice(0, 30)}`,
      focusVisible: element.matches(":focus-visible"),
      drawn: outline || style.boxShadow !== "none",
      contrast: outline ? (light + 0.05) / (dark + 0.05) : 0,
    };
  });
}

/** Presses Tab until `target` has the focus (at most `limit` times), checking the focus ring at every stop. */
async function tabTo(page: Page, target: Locator, limit = 25) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const ring = await focusRing(page);
    if (ring.element !== "body") {
      expect(ring, `focus ring of ${ring.element}`).toMatchObject({ focusVisible: true, drawn: true });
      expect(ring.contrast, `focus ring contrast of ${ring.element}`).toBeGreaterThanOrEqual(3);
    }
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

test("a signer goes from the link to the signed copy with the keyboard alone, always seeing where the focus is", async ({ api, browser }) => {
  test.setTimeout(120_000);
  const person = signer({ signChallenges: [] });
  const link = await signerLink(api, person);
  const signerPage = new SignerPage(await (await browser.newContext(DESKTOP)).newPage());
  const keyboard = signerPage.page.keyboard;
  const p = signerPage.page;
  await signerPage.open(link);

  // the first stop is the skip link, which leads into the page's main content
  await keyboard.press("Tab");
  await expect(p.getByRole("link", { name: "Ir al contenido" })).toBeFocused();
  const skipRing = await focusRing(p);
  expect(skipRing).toMatchObject({ focusVisible: true, drawn: true });
  expect(skipRing.contrast).toBeGreaterThanOrEqual(3);
  await keyboard.press("Enter");
  await expect(p.getByRole("main")).toBeFocused();

  await tabTo(p, p.getByLabel("Tipo de documento"));
  await tabTo(p, p.getByLabel("Número de documento"));
  await keyboard.type(person.doc_id);
  await tabTo(p, p.getByRole("button", { name: "Continuar" }));
  await keyboard.press("Enter");

  await expect(p.getByTestId("names-step")).toBeVisible();
  await tabTo(p, p.getByLabel("Nombres", { exact: true }));
  await keyboard.type("Ana María");
  await tabTo(p, p.getByLabel("Apellidos", { exact: true }));
  await keyboard.type("Rojas");
  await tabTo(p, p.getByRole("button", { name: "Confirmar y continuar" }));
  await keyboard.press("Space");

  await signerPage.expectReadStep();
  await signerPage.expectDocumentsLoaded();
  // reading with the keyboard: Page Down until the server's record holds every page
  await tabTo(p, p.getByRole("link", { name: /Descargar/ }).first());
  await expect
    .poll(
      async () => {
        if (await signerPage.signButton().isEnabled()) return true;
        await keyboard.press("PageDown");
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await tabTo(p, signerPage.signButton());
  await keyboard.press("Enter");
  await expect(p.getByTestId("signed-receipt")).toBeVisible({ timeout: 60_000 });
  await tabTo(p, p.getByRole("link", { name: /Descargar/ }).first());
});

test("the camera step describes the preview in text and announces every status change in a live region", async ({ api, browser }) => {
  test.setTimeout(180_000);
  const person = signer({ signChallenges: ["facial"] });
  const link = await signerLink(api, person);
  const context = await browser.newContext(PHONE);
  await useScriptedCamera(context, posesOf("A"));
  // every text the live region takes, in order, as a screen reader would hear them
  await context.addInitScript(() => {
    const heard: string[] = [];
    (window as unknown as { heardStatus: string[] }).heardStatus = heard;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="facial-status"]')?.textContent?.trim() ?? "";
      if (text && heard.at(-1) !== text) heard.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const page = new SignerPage(await context.newPage());
  await page.open(link);
  await page.identify(person.doc_id);
  await page.confirmNames({ given: "Ana", family: "Soto" });
  await page.expectFacialStep();

  // the region is there (empty) before anything changes, so the first change is announced too
  const status = page.page.getByTestId("facial-status");
  await expect(status).toHaveAttribute("aria-live", "assertive");
  await expect(status).toHaveText("");
  await page.chooseIdDocument(photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: person.doc_id, unmarked: true }));
  await page.startCamera();
  await expect(status).toHaveText("Centre su rostro en el óvalo y pulse el botón.");
  const preview = page.page.locator("video");
  await expect(preview).toHaveAccessibleName("Vista de su cámara");
  await expect(preview).toHaveAccessibleDescription(/óvalo/);

  await page.runChallenge();
  await expect(page.page.getByTestId("facial-feedback").or(page.page.getByTestId("read-step"))).toBeVisible({ timeout: 60_000 });
  const heard = await page.page.evaluate(() => (window as unknown as { heardStatus: string[] }).heardStatus);
  console.log("live region:", heard);
  expect(heard.slice(0, 6)).toEqual([
    "Abriendo cámara…",
    "Centre su rostro en el óvalo y pulse el botón.",
    "Mire a la cámara…",
    expect.stringMatching(/^Movimiento 1 de 2: Ahora /),
    expect.stringMatching(/^Movimiento 2 de 2: Ahora /),
    "Verificando su rostro… no cierre esta página.",
  ]);
});
