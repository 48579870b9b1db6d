import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { ADMIN, test, expect, screenshotBoth } from "../fixtures/dashboard";
import { StampPage } from "../pages/stamp-page";
import { tempFile, validatePdf } from "../fixtures/independent-validators";
import { fixturePath } from "../../test/fixtures-dir";

const CONTRACT = fixturePath("pdfs/valid/libreoffice74-contrato-a4.pdf");
const ROTATED = fixturePath("pdfs/valid/rotate90-all-pages.pdf");
const PORTRAIT = fixturePath("images/portrait-413x531.jpg");
// size 1 with an image and no QR (stampDimensions(1, true, false))
const STAMP = { width: 250, height: 128 };

type Raster = { width: number; height: number; dark: (x0: number, y0: number, x1: number, y1: number) => number };

/** The page rendered by poppler at 72 dpi: one pixel per point, origin at the top-left of the page as displayed. */
function renderPage(pdf: Uint8Array, pageNumber: number): Raster {
  const file = tempFile("stamped.pdf", pdf);
  const prefix = path.join(path.dirname(file), "page");
  execFileSync("pdftoppm", ["-r", "72", "-f", String(pageNumber), "-l", String(pageNumber), "-png", "-singlefile", file, prefix]);
  const png = PNG.sync.read(fs.readFileSync(`${prefix}.png`));
  const dark = (x0: number, y0: number, x1: number, y1: number) => {
    let count = 0;
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(png.height, Math.round(y1)); y++) {
      for (let x = Math.max(0, Math.round(x0)); x < Math.min(png.width, Math.round(x1)); x++) {
        const i = (y * png.width + x) * 4;
        if (png.data[i] + png.data[i + 1] + png.data[i + 2] < 3 * 110) count++;
      }
    }
    return count;
  };
  return { width: png.width, height: png.height, dark };
}

/** The stamp is inside the rectangle dropped at `position` (points from the bottom-left) and nowhere around it. */
function expectStampAt(raster: Raster, position: { x: number; y: number }) {
  const left = position.x;
  const top = raster.height - position.y - STAMP.height;
  const inside = raster.dark(left + 2, top + 2, left + STAMP.width - 2, top + STAMP.height - 2);
  expect(inside, "dark pixels inside the dropped rectangle").toBeGreaterThan(2000);
  // an empty band just outside each side: a shifted stamp would show up here
  expect(raster.dark(left - 22, top, left - 4, top + STAMP.height), "left of the stamp").toBe(0);
  expect(raster.dark(left + STAMP.width + 4, top, left + STAMP.width + 22, top + STAMP.height), "right of the stamp").toBe(0);
  expect(raster.dark(left, top + STAMP.height + 4, left + STAMP.width, top + STAMP.height + 22), "below the stamp").toBe(0);
  expect(raster.dark(left, top - 22, left + STAMP.width, top - 4), "above the stamp").toBe(0);
}

async function caPem(page: import("@playwright/test").Page) {
  const response = await page.request.get("/api/pki/ca.pem");
  expect(response.status()).toBe(200);
  return response.text();
}

test("staff place a stamp by dragging it on the page, sign as agente and download a valid PDF with the stamp where it was dropped", async ({ adminPage: page }) => {
  test.setTimeout(180_000);
  const stamp = new StampPage(page);
  await stamp.open();
  await stamp.uploadPdf(CONTRACT);
  await stamp.uploadImage(PORTRAIT);
  await stamp.fillSigner({ names: "Ana María", lastNames: "Pérez Soto", personId: "45678912" });
  const { width, height } = await stamp.geometry();
  expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);

  // page 1 of the contract is empty below its text (rows > 290 at 72 dpi)
  await stamp.dragStampTo(300, 600);
  const position = await stamp.position();
  expect(Math.abs(position.x - 300)).toBeLessThanOrEqual(1);
  expect(Math.abs(position.y - (height - 600 - STAMP.height))).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("stamp-box")).toContainText("Ana María Pérez Soto");
  await screenshotBoth(page, "dashboard-stamp");

  const pdf = await stamp.signAndDownload();
  expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
  const validation = validatePdf(pdf, await caPem(page));
  expect(validation.pass, validation.output).toBe(true);
  expect(validation.signatures).toBe(1);

  const raster = renderPage(pdf, 1);
  expectStampAt(raster, position);
  // a region far from the stamp, also empty in the original, stays empty
  expect(raster.dark(40, 400, 250, 560)).toBe(0);
});

test("on a page with /Rotate 90 the drop position is measured on the page as displayed", async ({ adminPage: page }) => {
  test.setTimeout(180_000);
  const stamp = new StampPage(page);
  await stamp.open();
  await stamp.uploadPdf(ROTATED);
  await stamp.choosePage(1);
  await stamp.uploadImage(PORTRAIT);
  await stamp.fillSigner({ names: "Luis", lastNames: "Rojas", personId: "12345678" });
  const { width, height } = await stamp.geometry();
  expect([width, height]).toEqual([792, 612]);

  await stamp.dragStampTo(450, 380);
  const position = await stamp.position();
  expect(Math.abs(position.x - 450)).toBeLessThanOrEqual(1);
  expect(Math.abs(position.y - (height - 380 - STAMP.height))).toBeLessThanOrEqual(1);

  const pdf = await stamp.signAndDownload();
  const validation = validatePdf(pdf, await caPem(page));
  expect(validation.pass, validation.output).toBe(true);
  const raster = renderPage(pdf, 1);
  expect([raster.width, raster.height]).toEqual([792, 612]);
  expectStampAt(raster, position);
  expect(raster.dark(20, 20, 300, 180)).toBe(0);
});

test("a use-case error shows next to its field, and the time-stamp section returns a .tsr for any file", async ({ adminPage: page }) => {
  const stamp = new StampPage(page);
  await stamp.open();
  await stamp.uploadPdf(CONTRACT);
  await stamp.uploadImage(PORTRAIT);
  await stamp.fillSigner({ names: "Ana", lastNames: "Pérez", personId: "45678912" });
  // digital without credentials: the schema asks for the PIN before anything is sent
  await page.getByLabel("Digital (certificado del titular, con PIN)").check();
  await page.getByRole("button", { name: "Firmar PDF" }).click();
  await expect(page.locator("#sign_pin-error")).toHaveText("sign_pin es obligatorio para sign_type digital");
  // with a PIN but no holder credentials, the use case's message lands next to sign_username
  await page.getByLabel("PIN", { exact: true }).fill("1234");
  await page.getByRole("button", { name: "Firmar PDF" }).click();
  await expect(page.locator("#sign_username-error")).toContainText("sign_username y sign_password son obligatorios");

  const tsr = await stamp.timeStamp(CONTRACT);
  const file = tempFile("r.tsr", tsr);
  const ca = tempFile("ca.pem", await caPem(page));
  const text = execFileSync("openssl", ["ts", "-reply", "-in", file, "-text"], { encoding: "utf8" });
  expect(text).toContain("Status: Granted");
  // openssl recomputes the file's SHA-256 and checks the token's imprint, signature and chain to our CA (the request, with its nonce, was built server-side)
  const verify = spawnSync("openssl", ["ts", "-verify", "-data", CONTRACT, "-in", file, "-CAfile", ca], { encoding: "utf8" });
  expect(`${verify.stdout}${verify.stderr}`).toContain("Verification: OK");
});

test("the recent stamp signatures list an API signature with its signer, type, status and measured PAdES level, dated in the organization's zone", async ({ adminPage: page }) => {
  const login = await page.request.post("/api/auth/token", { data: { email: ADMIN.email, password: ADMIN.password } });
  const token = (await login.json()).data.token as string;
  const txToken = `Lista${Date.now()}`.padEnd(20, "0").slice(0, 20);
  const signed = await page.request.post("/api/v2/signPDF", {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      pdf_file: { name: "contrato.pdf", mimeType: "application/pdf", buffer: fs.readFileSync(CONTRACT) },
      image: { name: "foto.jpg", mimeType: "image/jpeg", buffer: fs.readFileSync(PORTRAIT) },
      names: "Carmen Rosa",
      last_names: "Quispe Mamani",
      person_id: "40506070",
      page: "1",
      tx_token: txToken,
    },
    timeout: 120_000,
  });
  const body = await signed.json();
  expect(body, JSON.stringify(body).slice(0, 200)).toMatchObject({ success: true, pades_level: "B-LT" });
  const day = new Intl.DateTimeFormat("es-PE", { dateStyle: "medium", timeZone: "America/Lima" }).format(new Date());

  const stamp = new StampPage(page);
  await stamp.open();
  await expect(page.getByRole("heading", { name: "Firmas con sello recientes" })).toBeVisible();
  const row = stamp.transaction(txToken);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Carmen Rosa Quispe Mamani");
  await expect(row).toContainText("Agente");
  await expect(row.locator("[data-status]")).toHaveText("Firmado");
  await expect(row.getByTestId("stamp-pades-level")).toHaveText("PAdES B-LT");
  await expect(row).toContainText(day);
  await expect(row).toContainText("(GMT-5)");
  await row.scrollIntoViewIfNeeded();
  await screenshotBoth(page, "dashboard-stamp-transactions");
});
