import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { PDFArray, PDFName, PDFNumber, PDFStream } from "pdf-lib";
import type { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { buildStampContent, type StampData } from "@/lib/stamp/build-stamp-content";
import { sampleSigner } from "@/lib/stamp/test-support/sample-signer";
import { drawStamp, stampDimensions } from "@/lib/stamp/draw-stamp";
import { StampError } from "@/lib/stamp/errors";
import { layoutProcessStamp, layoutStamp, type StampBox, type StampSize } from "@/lib/stamp/layout-stamp";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { renderStamp, type RenderedStamp } from "@/lib/stamp/test-support/render-stamp";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("images");
const DPI = 150;
const MARGIN = 20;
const fixture = (name: string) => readStampImage(readFileSync(path.join(FIXTURES, name)), name);
const portrait = fixture("portrait-413x531.jpg");

const signer: StampData = sampleSigner;
const TEXT_QR = "Línea 1\nLínea 2 ¿ñ?\nhttps://example.com/x?a=1&b=2";

function decodeQr(png: PNG): { data: string; bytes: Buffer } {
  const found = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  if (!found) throw new Error("no QR code found in the rendered stamp");
  return { data: found.data, bytes: Buffer.from(found.binaryData) };
}

/** Stamp-space box to pixel rectangle of the rendered page (origin top-left). */
function pixelBox(rendered: RenderedStamp, stampHeight: number, box: StampBox) {
  const s = DPI / 72;
  const pageHeight = stampHeight + 2 * MARGIN;
  return {
    left: Math.round((MARGIN + box.x) * s),
    right: Math.round((MARGIN + box.x + box.width) * s),
    top: Math.round((pageHeight - MARGIN - box.y - box.height) * s),
    bottom: Math.round((pageHeight - MARGIN - box.y) * s),
  };
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (y * png.width + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}

function meanDifference(a: PNG, b: PNG, box: ReturnType<typeof pixelBox>): number {
  let total = 0;
  let count = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const [p, q] = [pixel(a, x, y), pixel(b, x, y)];
      total += Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]);
      count += 3;
    }
  }
  return total / count;
}

describe("drawStamp: QR and text survive a real render", () => {
  const autoText = buildStampContent(signer, { type: "auto" }).qrText!;

  it.each<[StampSize, "auto" | "text"]>([
    [1, "auto"],
    [2, "auto"],
    [1, "text"],
    [2, "text"],
  ])("size %i, qr_type=%s: qpdf is clean, the QR decodes to the exact text, accents extract", async (size, qrType) => {
    const expected = qrType === "auto" ? autoText : TEXT_QR;
    const stamp = await drawStamp({ data: signer, image: portrait, qr: { text: expected }, size });
    const rendered = await renderStamp(stamp, DPI, MARGIN);

    expect(rendered.qpdfReport).toContain("No syntax or stream encoding errors found");
    const qr = decodeQr(rendered.png);
    expect(qr.data).toBe(expected);
    expect(qr.bytes.equals(Buffer.from(expected, "utf8"))).toBe(true);
    expect(rendered.text).toContain("María José Núñez Güemes");
    expect(rendered.text).toContain("AMBIENTE DE CALIDAD – SIN");
    expect(rendered.text).toContain("Fecha: 22/11/2026 19:46:04 -05:00");
    if (qrType === "auto") copyFileSync(rendered.pngPath, path.join(tmpdir(), `stamp-size${size}.png`));
  });

  it("renders every Spanish letter and sign from the embedded DejaVu subsets", async () => {
    const data = { ...signer, names: "Íñigo Ángel", lastNames: "Muñoz Güemes ¿Úrsula? ¡Éxito!", environment: "production" as const };
    const stamp = await drawStamp({ data, image: portrait, qr: null, size: 1 });
    const rendered = await renderStamp(stamp, DPI, MARGIN);
    expect(rendered.text.replace(/\s+/g, " ")).toContain("Íñigo Ángel Muñoz Güemes ¿Úrsula? ¡Éxito!");
    const input = path.join(tmpdir(), `stamp-fonts-${process.pid}.pdf`);
    writeFileSync(input, rendered.pdf);
    const fonts = execFileSync("pdffonts", [input], { encoding: "utf8" });
    // name, type, encoding, emb, sub, uni: both fonts embedded as subsets with a ToUnicode map
    expect(fonts).toMatch(/\+DejaVuSans\s.*yes\s+yes\s+yes/);
    expect(fonts).toMatch(/\+DejaVuSans-Bold\s.*yes\s+yes\s+yes/);
  });

  it("shares the prepared subsets between stamps, and gives text outside them a subset of its own", async () => {
    const fontNames = async (data: StampData) => {
      const rendered = await renderStamp(await drawStamp({ data, image: portrait, qr: { text: "x" }, size: 1 }), DPI, MARGIN);
      const input = path.join(tmpdir(), `stamp-fonts-${process.pid}.pdf`);
      writeFileSync(input, rendered.pdf);
      const names = execFileSync("pdffonts", [input], { encoding: "utf8" }).match(/[A-Z]{6}\+DejaVuSans(-Bold)?(?=\s)/g)!;
      return { text: rendered.text.replace(/\s+/g, " "), regular: names.find((n) => !n.endsWith("-Bold")), bold: names.find((n) => n.endsWith("-Bold")) };
    };
    const plain = await fontNames({ ...signer, names: "Fiona Offilia", lastNames: "Ruffles Affleck" });
    const other = await fontNames({ ...signer, names: "Ffion", lastNames: "Łukasz Дмитрий" });
    // ligatures shown from the prepared subset still extract as their letters
    expect(plain.text).toContain("Fiona Offilia Ruffles Affleck");
    expect(other.text).toContain("Ffion Łukasz Дмитрий");
    expect(other.regular).toBe(plain.regular);
    expect(other.bold).not.toBe(plain.bold);
  });

  it("refuses a text too long for a size-1 QR and draws it at size 2", async () => {
    const long = `https://example.com/?q=${"ñandú-".repeat(100)}`;
    await expect(drawStamp({ data: signer, image: portrait, qr: { text: long }, size: 1 })).rejects.toMatchObject({
      name: "StampError",
      code: "INVALID_QR",
    });
    const stamp = await drawStamp({ data: signer, image: portrait, qr: { text: long }, size: 2 });
    expect(decodeQr((await renderStamp(stamp, DPI, MARGIN)).png).data).toBe(long);
  });

  it("refuses a text beyond what any QR code holds", async () => {
    const error = await drawStamp({ data: signer, qr: { text: "x".repeat(3000) }, size: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StampError);
    expect((error as StampError).code).toBe("INVALID_QR");
  });
});

describe("drawStamp: images", () => {
  const accepted = [
    "almost-square-portrait-600x601.jpg",
    "jpeg-content-with-png-extension.png",
    "large-6000x8000.jpg",
    "portrait-16bit-240x320.png",
    "portrait-alpha-413x531.png",
    "portrait-cmyk.jpg",
    "portrait-progressive.jpg",
    "portrait-stored-landscape-exif-orientation6.jpg",
    "square-600x600.png",
    "tiny-1x1.jpg",
    "tiny-1x1.png",
  ];

  it.each(accepted)("%s draws into a PDF that qpdf accepts", async (name) => {
    const stamp = await drawStamp({ data: signer, image: fixture(name), qr: { text: "x" }, size: 1 });
    const rendered = await renderStamp(stamp, 72, MARGIN);
    expect(rendered.qpdfReport).toContain("No syntax or stream encoding errors found");
  });

  it("keeps the scratch document small for a 48-megapixel JPEG (embedded as is, never decoded)", async () => {
    const stamp = await drawStamp({ data: signer, image: fixture("large-6000x8000.jpg"), qr: null, size: 1 });
    expect((await stamp.document.save()).length).toBeLessThan(475_000 + 200_000);
  });

  const renderWith = async (name: string) =>
    renderStamp(await drawStamp({ data: signer, image: fixture(name), qr: null, size: 1 }), DPI, MARGIN);
  const imageBox = (rendered: RenderedStamp) => pixelBox(rendered, layoutStamp(1, true, false).height, layoutStamp(1, true, false).image!);

  it.each([
    ["portrait-stored-landscape-exif-orientation6.jpg", 12],
    ["portrait-progressive.jpg", 12],
    ["portrait-cmyk.jpg", 30],
  ])("%s looks like the upright RGB portrait (orientation and CMYK polarity applied)", async (name, tolerance) => {
    const reference = await renderWith("portrait-413x531.jpg");
    const candidate = await renderWith(name);
    expect(meanDifference(reference.png, candidate.png, imageBox(reference))).toBeLessThan(tolerance);
  });

  it("a wrong orientation would be caught: the unrotated stored pixels differ a lot", async () => {
    const reference = await renderWith("portrait-413x531.jpg");
    const rotated = readStampImage(readFileSync(path.join(FIXTURES, "portrait-stored-landscape-exif-orientation6.jpg")));
    const ignoringExif = await renderStamp(await drawStamp({ data: signer, image: { ...rotated, orientation: 1, orientedWidth: 531, orientedHeight: 413 }, qr: null, size: 1 }), DPI, MARGIN);
    expect(meanDifference(reference.png, ignoringExif.png, imageBox(reference))).toBeGreaterThan(30);
  });

  it("shows the transparent corners of an alpha PNG as the white stamp background", async () => {
    const rendered = await renderWith("portrait-alpha-413x531.png");
    const box = imageBox(rendered);
    const displayedWidth = ((box.bottom - box.top) * 413) / 531;
    const left = Math.round((box.left + box.right - displayedWidth) / 2) + 3;
    expect(pixel(rendered.png, left, box.top + 3)).toEqual([255, 255, 255]);
  });
});

describe("drawStamp: geometry", () => {
  it.each<[StampSize, boolean, boolean, number, number]>([
    [1, true, true, 250, 170],
    [1, true, false, 250, 128],
    [1, false, true, 250, 128],
    [1, false, false, 250, 128],
    [2, true, true, 500, 340],
    [2, false, true, 500, 256],
    [2, true, false, 500, 256],
    [2, false, false, 500, 256],
  ])("size %i image=%s qr=%s is %ix%i pt with a matching /BBox", async (size, hasImage, hasQr, width, height) => {
    expect(stampDimensions(size, hasImage, hasQr)).toEqual({ width, height });
    const stamp = await drawStamp({ data: signer, image: hasImage ? portrait : undefined, qr: hasQr ? { text: "x" } : null, size });
    expect([stamp.width, stamp.height]).toEqual([width, height]);
    const form = stamp.document.context.lookup(stamp.formXObject);
    expect(form).toBeInstanceOf(PDFStream);
    const dict = (form as PDFStream).dict;
    expect(dict.get(PDFName.of("Subtype"))).toBe(PDFName.of("Form"));
    const bbox = dict.lookup(PDFName.of("BBox"), PDFArray).asArray().map((n) => (n as PDFNumber).asNumber());
    expect(bbox).toEqual([0, 0, width, height]);
  });

  it.each([
    [true, true],
    [true, false],
    [false, true],
    [false, false],
  ] as const)("size 2 is exactly size 1 doubled: image=%s qr=%s", (hasImage, hasQr) => {
    const one = stampDimensions(1, hasImage, hasQr);
    expect(stampDimensions(2, hasImage, hasQr)).toEqual({ width: 2 * one.width, height: 2 * one.height });
    expect(layoutStamp(2, hasImage, hasQr).fontSize).toEqual({ max: 16, min: 12 });
  });

  it.each<[StampSize, "horizontal" | "vertical", number, number]>([
    [1, "horizontal", 250, 80],
    [2, "horizontal", 500, 160],
    [1, "vertical", 80, 250],
    [2, "vertical", 160, 500],
  ])("process stamp size %i %s is %ix%i pt, drawn at that size", async (size, orientation, width, height) => {
    const layout = layoutProcessStamp(size, orientation);
    expect([layout.width, layout.height]).toEqual([width, height]);
    const stamp = await drawStamp({ data: signer, qr: null, size, orientation });
    expect([stamp.width, stamp.height]).toEqual([width, height]);
  });

  it.each<StampSize>([1, 2])("size %i keeps the boxes inside the stamp and apart from each other", (size) => {
    const layout = layoutStamp(size, true, true);
    const boxes = [layout.image!, layout.qr!, layout.text];
    for (const box of boxes) {
      expect(box.x).toBeGreaterThanOrEqual(layout.border);
      expect(box.y).toBeGreaterThanOrEqual(layout.border);
      expect(box.x + box.width).toBeLessThanOrEqual(layout.width - layout.border);
      expect(box.y + box.height).toBeLessThanOrEqual(layout.height - layout.border);
    }
    for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
      const [p, q] = [boxes[a], boxes[b]];
      const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y;
      expect(apart).toBe(true);
    }
  });
});
