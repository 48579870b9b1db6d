import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { buildStampContent, type StampData, type StampLine } from "@/lib/stamp/build-stamp-content";
import { blockHeight, fitStampText, type StampFonts } from "@/lib/stamp/fit-stamp-text";
import { layoutStamp, type StampSize } from "@/lib/stamp/layout-stamp";
import { loadStampFonts } from "@/lib/stamp/load-stamp-fonts";
import { pdfLibFace, preparedStampFaces } from "@/lib/stamp/stamp-faces";

let pdfFonts: { regular: PDFFont; bold: PDFFont };
let fonts: StampFonts;
let preparedFonts: StampFonts;

beforeAll(async () => {
  const document = await PDFDocument.create();
  document.registerFontkit(fontkit);
  const files = await loadStampFonts();
  pdfFonts = { regular: await document.embedFont(files.regular, { subset: true }), bold: await document.embedFont(files.bold, { subset: true }) };
  fonts = { regular: pdfLibFace(pdfFonts.regular), bold: pdfLibFace(pdfFonts.bold) };
  const prepared = await preparedStampFaces();
  preparedFonts = { regular: prepared.regular.copyInto(document.context), bold: prepared.bold.copyInto(document.context) };
});

const data: StampData = {
  names: "María José",
  lastNames: "Núñez Güemes",
  personIdType: "DNI",
  personId: "45678912",
  nationality: "PER",
  signType: "agente",
  txToken: "AbCdEfGhIj0123456789",
  signedAt: new Date("2026-11-23T00:46:04Z"),
  environment: "quality",
  verifyUrl: "https://example.com",
};

function expectInside(lines: StampLine[], size: StampSize) {
  const { text: box, fontSize } = layoutStamp(size, true, true);
  const fitted = fitStampText(lines, fonts, box, fontSize);
  for (const row of fitted.rows) {
    // measured by pdf-lib itself, not by the face under test
    expect((row.style === "body" ? pdfFonts.regular : pdfFonts.bold).widthOfTextAtSize(row.text, fitted.fontSize)).toBeLessThanOrEqual(box.width);
  }
  expect(blockHeight(fitted.rows.length, fitted.fontSize)).toBeLessThanOrEqual(box.height);
  expect(fitted.fontSize).toBeGreaterThanOrEqual(fontSize.min);
  expect(fitted.fontSize).toBeLessThanOrEqual(fontSize.max);
  return fitted;
}

describe("fitStampText", () => {
  it.each<StampSize>([1, 2])("keeps ordinary data at the largest size (size %i)", (size) => {
    const fitted = expectInside(buildStampContent(data).lines, size);
    expect(fitted.fontSize).toBe(layoutStamp(size, true, true).fontSize.max);
    expect(fitted.truncated).toBe(false);
  });

  it("shrinks long names before dropping anything", () => {
    const lines = buildStampContent({ ...data, names: "María de los Ángeles Guadalupe", lastNames: "Fernández de Córdoba y Ruiz-Tagle Echeverría", signType: "otp", email: "maria.de.los.angeles.fernandez@municipalidad-example.gob.pe" }).lines;
    const fitted = expectInside(lines, 1);
    expect(fitted.truncated).toBe(false);
    expect(fitted.rows.map((r) => r.text).join(" ")).toContain("maria.de.los.angeles");
  });

  it.each<StampSize>([1, 2])("never leaves the box with absurd input; ends with an ellipsis (size %i)", (size) => {
    const lines = buildStampContent({ ...data, names: "Ñ".repeat(400), lastNames: "Ü ".repeat(300), email: "x".repeat(500), signType: "otp" }).lines;
    const fitted = expectInside(lines, size);
    // cut either by the per-line cap or by the box, and the cut shows
    expect(fitted.rows.some((row) => row.text.endsWith("…"))).toBe(true);
  });

  it("marks the text as truncated when the rows outnumber the box at the smallest size", () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ text: `Línea ${i}`, style: "body" as const }));
    const fitted = expectInside(many, 1);
    expect(fitted.truncated).toBe(true);
    expect(fitted.rows.at(-1)!.text.endsWith("…")).toBe(true);
  });

  it.each<StampSize>([1, 2])("the prepared faces wrap exactly as pdf-lib's own measure does (size %i)", (size) => {
    const { text: box, fontSize } = layoutStamp(size, true, true);
    const inputs = [
      buildStampContent(data).lines,
      buildStampContent({ ...data, names: "María de los Ángeles Guadalupe", lastNames: "Fernández de Córdoba y Ruiz-Tagle Echeverría", signType: "otp", email: "fiona.offilia.ruffles@oficina-fiscal.example.gob.pe" }).lines,
      buildStampContent({ ...data, names: "Ñ".repeat(400), lastNames: "ffi fl ".repeat(80), email: "x".repeat(500), signType: "otp" }).lines,
      Array.from({ length: 60 }, (_, i) => ({ text: `Línea ${i} affluent ¿€?`, style: "body" as const })),
    ];
    for (const lines of inputs) {
      expect(fitStampText(lines, preparedFonts, box, fontSize)).toEqual(fitStampText(lines, fonts, box, fontSize));
    }
  });
});
