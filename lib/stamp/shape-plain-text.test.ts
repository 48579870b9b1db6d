import fontkit from "@pdf-lib/fontkit";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { loadStampFonts } from "@/lib/stamp/load-stamp-fonts";
import { PLAIN_CODE_POINTS, PlainTextShaper } from "@/lib/stamp/shape-plain-text";

// Deterministic pseudo-random strings weighted towards what shaping could change: f, i, l, j, spaces, accents.
function* samples(count: number): Generator<string> {
  let seed = 0x2f6b3a1d;
  const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const tricky = Array.from("ffffiiilljj  ñÑáéíóúüÜ¿¡–…·€");
  const plain = PLAIN_CODE_POINTS.map((c) => String.fromCodePoint(c));
  for (let n = 0; n < count; n++) {
    const length = 1 + Math.floor(next() * 40);
    let text = "";
    for (let i = 0; i < length; i++) text += next() < 0.5 ? tricky[Math.floor(next() * tricky.length)] : plain[Math.floor(next() * plain.length)];
    yield text;
  }
}

const FIXED = [
  "María José Núñez Güemes",
  "AMBIENTE DE CALIDAD – SIN VALOR LEGAL",
  "Firma: OTP fiona.offilia@oficina-fiscal.example.gob.pe",
  "affluent ffi ffl fi fl ff f f ij Ĳ",
  "Fecha: 22/11/2026 19:46:04 -05:00",
  "DNI: 45678912 · Nacionalidad: PER",
  "¿Úrsula? ¡Éxito! Íñigo Ángel 100 € «x» °ºª´ ÞþÐðßçÇãõøåæ",
];

describe("PlainTextShaper agrees with fontkit's layout and pdf-lib's measure", () => {
  it.each(["regular", "bold"] as const)("DejaVu Sans %s: same glyphs and the same width, to the bit", async (style) => {
    const file = (await loadStampFonts())[style];
    const font = fontkit.create(file);
    const shaper = new PlainTextShaper(font);
    const document = await PDFDocument.create();
    document.registerFontkit(fontkit);
    const embedded = await document.embedFont(file, { subset: true });
    let ligatures = 0;
    for (const text of [...FIXED.filter((t) => !t.includes("Ĳ")), ...samples(3000)]) {
      const glyphs = shaper.glyphs(text);
      expect(glyphs, text).toBeDefined();
      const laidOut = font.layout(text).glyphs.map((g) => g.id);
      expect(glyphs, text).toEqual(laidOut);
      expect(shaper.widthAtSizeOne(glyphs!), text).toBe(embedded.widthOfTextAtSize(text, 1));
      if (laidOut.length < Array.from(text).length) ligatures++;
    }
    // the counter-check: the samples do exercise the f-ligatures, so a shaper without them would fail above
    expect(ligatures).toBeGreaterThan(100);
  });

  it("leaves text outside the plain set to fontkit", async () => {
    const shaper = new PlainTextShaper(fontkit.create((await loadStampFonts()).regular));
    for (const text of ["Łódź", "Ĳssel", "Москва", "e\u0301", "i\u0308", "ﬁ", "a\u2044b", "© 2026", "½"]) expect(shaper.glyphs(text), text).toBeUndefined();
  });
});
