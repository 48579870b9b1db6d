import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, PDFName, PDFNumber, degrees } from "pdf-lib";
import { beforeAll, describe, expect, test } from "vitest";
import { encodeTextString } from "@/lib/pdf/build-signature-dictionary";
import { SignatureTooLargeError } from "@/lib/pdf/embed-signature";
import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { SignPdfOptions, signPdf } from "@/lib/pdf/sign-pdf";
import { TestPki, createTestPki } from "@/lib/pdf/test-support/create-test-pki";
import { makeStampAppearance } from "@/lib/pdf/test-support/make-stamp-appearance";
import { renderPage } from "@/lib/pdf/test-support/render-page";
import { pdfsigValidations, validatePdf } from "@/lib/pdf/test-support/run-validators";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("pdfs");
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

let pki: TestPki;
let outDir: string;
beforeAll(() => {
  pki = createTestPki();
  outDir = mkdtempSync(path.join(tmpdir(), "pdf-sign-"));
});

async function expectValid(bytes: Uint8Array, name: string): Promise<void> {
  const file = path.join(outDir, name);
  writeFileSync(file, bytes);
  const report = await validatePdf(file, pki.caPemPath);
  expect(report.ok, report.output).toBe(true);
}

/** Pages: upright, /Rotate 90, 180, 270, and an upright page whose CropBox is offset inside the MediaBox. */
async function rotatedInput(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const rotation of [0, 90, 180, 270]) doc.addPage([612, 792]).setRotation(degrees(rotation));
  doc.addPage([612, 792]).setCropBox(100, 150, 400, 550);
  return doc.save({ useObjectStreams: false });
}

async function stampAt(bytes: Uint8Array, pageIndex: number, rect: { x: number; y: number; width: number; height: number }) {
  const appearance = await makeStampAppearance(rect.width, rect.height);
  return signPdf(bytes, { sign: pki.sign, widget: { pageIndex, rect, appearance } });
}

describe("visible stamp geometry (rendered with pdftoppm at 72 dpi)", () => {
  const rect = { x: 60, y: 90, width: 200, height: 50 };
  test.each([
    { pageIndex: 0, label: "upright", shown: { width: 612, height: 792 } },
    { pageIndex: 1, label: "/Rotate 90", shown: { width: 792, height: 612 } },
    { pageIndex: 2, label: "/Rotate 180", shown: { width: 612, height: 792 } },
    { pageIndex: 3, label: "/Rotate 270", shown: { width: 792, height: 612 } },
    { pageIndex: 4, label: "CropBox offset", shown: { width: 400, height: 550 } },
  ])("$label: the stamp appears upright at the requested rect", async ({ pageIndex, shown }) => {
    const signed = await stampAt(await rotatedInput(), pageIndex, rect);
    await expectValid(signed, `geometry-${pageIndex}.pdf`);
    const page = renderPage(signed, pageIndex + 1);
    expect([page.width, page.height]).toEqual([shown.width, shown.height]);
    const box = { left: rect.x, right: rect.x + rect.width, top: shown.height - rect.y - rect.height, bottom: shown.height - rect.y };
    expect(page.inkRatio({ left: box.left + 4, right: box.right - 4, top: box.top + 4, bottom: box.bottom - 4 })).toBeGreaterThan(0.95);
    expect(page.inkRatio({ left: box.left - 30, right: box.left - 4, top: box.top, bottom: box.bottom })).toBe(0);
    expect(page.inkRatio({ left: box.left, right: box.right, top: box.top - 30, bottom: box.top - 4 })).toBe(0);
    // upright text: a wide, flat run of dark pixels starting near the stamp's left edge
    const text = page.darkBounds({ left: box.left + 5, right: box.right - 5, top: box.top + 5, bottom: box.bottom - 5 });
    expect(text).toBeDefined();
    expect(text!.right - text!.left).toBeGreaterThan(3 * (text!.bottom - text!.top));
    expect(text!.left - box.left).toBeLessThan(20);
  });

  test("inherited /Rotate 270 from the page tree root", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    doc.catalog.Pages().set(PDFName.of("Rotate"), PDFNumber.of(270));
    const input = await doc.save({ useObjectStreams: false });
    expect(inspectPdf(input).pages[0].rotate).toBe(270);
    const signed = await stampAt(input, 0, rect);
    const page = renderPage(signed, 1);
    expect([page.width, page.height]).toEqual([842, 595]);
    const top = 595 - rect.y - rect.height;
    expect(page.inkRatio({ left: rect.x + 4, right: rect.x + rect.width - 4, top: top + 4, bottom: top + rect.height - 4 })).toBeGreaterThan(0.95);
  });

  test("fixture with /Rotate 90 on every page", async () => {
    const signed = await stampAt(fixture("valid/rotate90-all-pages.pdf"), 2, { x: 500, y: 30, width: 150, height: 40 });
    await expectValid(signed, "rotate90-fixture.pdf");
    const page = renderPage(signed, 3);
    expect(page.inkRatio({ left: 504, right: 646, top: 612 - 70 + 4, bottom: 612 - 30 - 4 })).toBeGreaterThan(0.95);
  });
});

describe("appendPage", () => {
  test("adds a blank last page in the same revision and can carry the stamp", async () => {
    const input = fixture("valid/libreoffice74-contrato-a4.pdf");
    const appearance = await makeStampAppearance(300, 80);
    const signed = await signPdf(input, {
      sign: pki.sign,
      appendPage: { width: 595, height: 842 },
      widget: { pageIndex: 2, rect: { x: 100, y: 600, width: 300, height: 80 }, appearance },
    });
    const info = inspectPdf(signed);
    expect(info.pageCount).toBe(3);
    expect(info.signatureCount).toBe(1);
    expect(info.pages[2].mediaBox).toEqual([0, 0, 595, 842]);
    await expectValid(signed, "append-page.pdf");
    const page = renderPage(signed, 3);
    expect(page.inkRatio({ left: 104, right: 396, top: 842 - 680 + 4, bottom: 842 - 600 - 4 })).toBeGreaterThan(0.95);
    expect(page.inkRatio({ left: 0, right: 595, top: 0, bottom: 842 - 690 })).toBe(0);
  });

  test("works on an xref-stream file and keeps signing afterwards", async () => {
    let bytes: Uint8Array = fixture("valid/objstm-xrefstream-firefox.pdf");
    bytes = await signPdf(bytes, { sign: pki.sign, appendPage: { width: 612, height: 792 } });
    bytes = await signPdf(bytes, { sign: pki.sign, appendPage: { width: 612, height: 792 } });
    expect(inspectPdf(bytes)).toMatchObject({ pageCount: 5, xrefKind: "stream", signatureCount: 2 });
    await expectValid(bytes, "append-page-xrefstream.pdf");
  });
});

describe("text fields of the signature dictionary", () => {
  test("Reason/Location/ContactInfo/Name with ByteRange-like text, parentheses and accents stay harmless", async () => {
    const signed = await signPdf(fixture("valid/pdf13-fpdf.pdf"), {
      sign: pki.sign,
      reason: "Acepto (sin reservas) /ByteRange [0 1 2 3] /Contents <00>",
      location: "Cusco, Perú ) (",
      contactInfo: "firma@example.pe \\",
      signerName: "José Ñúñez 日本",
      fieldName: "FirmaCliente",
      signingTime: new Date("2024-05-06T07:08:09Z"),
    });
    const text = Buffer.from(signed).toString("latin1");
    expect(text.match(/\/ByteRange/g)).toHaveLength(1);
    expect(text).toContain(`/M ${encodeTextString("D:20240506070809+00'00'")}`);
    expect(text).toContain(`/Name ${encodeTextString("José Ñúñez 日本")}`);
    await expectValid(signed, "text-fields.pdf");
  });

  test("generated field names stay unique across signatures", async () => {
    let bytes: Uint8Array = fixture("valid/libreoffice70-tiny.pdf");
    for (let i = 0; i < 3; i++) bytes = await signPdf(bytes, { sign: pki.sign });
    const text = Buffer.from(bytes).toString("latin1");
    for (const name of ["Signature1", "Signature2", "Signature3"]) {
      expect(text).toContain(`/T <${Buffer.from(name).toString("hex").toUpperCase()}>`);
    }
    writeFileSync(path.join(outDir, "names.pdf"), bytes);
    expect(await pdfsigValidations(path.join(outDir, "names.pdf"))).toEqual(Array(3).fill("Signature is Valid."));
  });
});

describe("refusals", () => {
  const sign = async () => new Uint8Array(10);
  const appearance = () => makeStampAppearance(100, 40);
  const cases: { name: string; file: string; options: () => Promise<Partial<SignPdfOptions>>; code: PdfError["code"]; message?: RegExp }[] = [
    { name: "page not found", file: "valid/libreoffice74-contrato-a4.pdf", code: "PAGE_NOT_FOUND", message: /página 3 .*2 página/, options: async () => ({ widget: { pageIndex: 2, rect: { x: 0, y: 0, width: 10, height: 10 }, appearance: await appearance() } }) },
    { name: "negative page", file: "valid/libreoffice74-contrato-a4.pdf", code: "PAGE_NOT_FOUND", options: async () => ({ widget: { pageIndex: -1, rect: { x: 0, y: 0, width: 10, height: 10 }, appearance: await appearance() } }) },
    { name: "stamp beyond the right edge", file: "valid/libreoffice74-contrato-a4.pdf", code: "STAMP_OUT_OF_PAGE", options: async () => ({ widget: { pageIndex: 0, rect: { x: 500, y: 10, width: 100, height: 40 }, appearance: await appearance() } }) },
    { name: "stamp outside the CropBox but inside the MediaBox", file: "valid/cropbox-inside-mediabox.pdf", code: "STAMP_OUT_OF_PAGE", options: async () => ({ widget: { pageIndex: 0, rect: { x: 800, y: 10, width: 100, height: 40 }, appearance: await appearance() } }) },
    { name: "stamp fits unrotated but not on the /Rotate 90 page", file: "valid/rotate90-all-pages.pdf", code: "STAMP_OUT_OF_PAGE", options: async () => ({ widget: { pageIndex: 0, rect: { x: 10, y: 600, width: 100, height: 40 }, appearance: await appearance() } }) },
    { name: "DocMDP P=1 (JSignPdf)", file: "signed-by-others/jsignpdf-docmdp1-certified.pdf", code: "CERTIFIED_NO_CHANGES", options: async () => ({}) },
    { name: "DocMDP P=1 (Acrobat Sign, also encrypted)", file: "signed-by-others/acrobat-sign-docmdp1-certified.pdf", code: "CERTIFIED_NO_CHANGES", options: async () => ({}) },
    ...[
      "acrobat-aes256-owner-only-linearized.pdf", "acrobatxi-aes256-r6-owner-only-master.pdf", "acrobatxi-aes256-r6-user-view-owner-master.pdf",
      "aes128-v4-owner-only.pdf", "aes256-unicode-user-password.pdf", "pdf20-r6-saslprep-user-password.pdf", "pdfsharp-rc4-owner-only.pdf",
      "qpdf-aes256-owner-only-all-permissions.pdf", "qpdf-aes256-owner-only-restricted.pdf", "qpdf-aes256-user-password.pdf",
      "qpdf-rc4-128-user-password.pdf", "rc4-128bit-r3-owner-only-master.pdf", "rc4-40bit-r2-user-view-owner-master.pdf", "user-password-abc.pdf",
    ].map((name) => ({ name: `encrypted ${name}`, file: `encrypted/${name}`, code: "ENCRYPTED_PDF" as const, options: async () => ({}) })),
  ];

  test.each(cases)("$name → $code", async ({ file, options, code, message }) => {
    const promise = signPdf(fixture(file), { sign, ...(await options()) });
    await expect(promise).rejects.toBeInstanceOf(PdfError);
    await expect(promise).rejects.toMatchObject({ code });
    if (message) await expect(promise).rejects.toThrow(message);
  });

  test("inspectPdf refuses encrypted files too", () => {
    expect(() => inspectPdf(fixture("encrypted/qpdf-aes256-owner-only-all-permissions.pdf"))).toThrow(expect.objectContaining({ code: "ENCRYPTED_PDF" }));
  });

  test("a CMS larger than contentsBytes is an error, not a truncated signature", async () => {
    await expect(signPdf(fixture("valid/libreoffice70-tiny.pdf"), { sign: pki.sign, contentsBytes: 64 })).rejects.toBeInstanceOf(SignatureTooLargeError);
  });
});
