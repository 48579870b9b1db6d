import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { PDFDocument, PDFHexString, PDFObjectCopier, type PDFContext, type PDFFont, type PDFRef } from "pdf-lib";
import { loadStampFonts, parsedOnceFontkit } from "@/lib/stamp/load-stamp-fonts";
import { PlainTextShaper } from "@/lib/stamp/shape-plain-text";

/** One of the stamp's two fonts as the text fitting and drawing see it. */
export interface StampFace {
  /** pdf-lib's widthOfTextAtSize(text, 1), to the same double. */
  widthAtSizeOne(text: string): number;
  /** The string operand of Tj: the text's glyphs as 2-byte codes of the embedded font. */
  encodeText(text: string): PDFHexString;
  /** The Type0 font dictionary in the stamp's scratch document. */
  ref: PDFRef;
}

/**
 * A DejaVu subset holding every glyph of the plain set (Latin-1, the stamp's punctuation, the f-ligatures),
 * built once per process by pdf-lib and copied into each stamp: subsetting and deflating two fonts on
 * every stamp was a third of its CPU, for ~10 KB more per signed file.
 */
export class PreparedFace {
  private readonly cidOf: Map<number, string>;

  constructor(
    private readonly shaper: PlainTextShaper,
    private readonly template: { context: PDFContext; font: PDFRef },
    cidOf: Map<number, string>,
  ) {
    this.cidOf = cidOf;
  }

  /** True when every glyph of the text is in the prepared subset. */
  covers(text: string): boolean {
    const glyphs = this.shaper.glyphs(text);
    return glyphs !== undefined && glyphs.every((g) => this.cidOf.has(g));
  }

  /** Copies the prepared font objects into the stamp's document; the face only accepts covered text. */
  copyInto(context: PDFContext): StampFace {
    const copier = PDFObjectCopier.for(this.template.context, context);
    const ref = context.register(copier.copy(this.template.context.lookup(this.template.font)!));
    return {
      ref,
      widthAtSizeOne: (text) => this.shaper.widthAtSizeOne(this.glyphsOf(text)),
      encodeText: (text) => PDFHexString.of(this.glyphsOf(text).map((g) => this.cidOf.get(g)!).join("")),
    };
  }

  private glyphsOf(text: string): number[] {
    const glyphs = this.shaper.glyphs(text);
    if (!glyphs || !glyphs.every((g) => this.cidOf.has(g))) throw new Error("text outside the prepared stamp font");
    return glyphs;
  }
}

export interface PreparedFaces {
  regular: PreparedFace;
  bold: PreparedFace;
}

let prepared: Promise<PreparedFaces> | undefined;

export function preparedStampFaces(): Promise<PreparedFaces> {
  prepared ??= (async () => {
    const files = await loadStampFonts();
    const [regular, bold] = await Promise.all([prepareFace(files.regular, "DejaVuSans"), prepareFace(files.bold, "DejaVuSans-Bold")]);
    return { regular, bold };
  })();
  prepared.catch(() => {
    prepared = undefined;
  });
  return prepared;
}

async function prepareFace(file: Uint8Array, postscriptName: string): Promise<PreparedFace> {
  const document = await PDFDocument.create({ updateMetadata: false });
  deflateNatively(document.context);
  document.registerFontkit(parsedOnceFontkit);
  const font = await document.embedFont(file, { subset: true, customName: subsetName(postscriptName) });
  const shaper = new PlainTextShaper(parsedOnceFontkit.create(file));
  const cidOf = new Map<number, string>();
  for (const text of shaper.samples()) {
    const glyphs = shaper.glyphs(text)!;
    const hex = font.encodeText(text).asString();
    // the shaper must agree with pdf-lib's own layout on every glyph it can produce, or the subset would lie
    if (hex.length !== glyphs.length * 4 || shaper.widthAtSizeOne(glyphs) !== font.widthOfTextAtSize(text, 1)) {
      throw new Error(`stamp font shaping disagrees with fontkit on ${JSON.stringify(text)}`);
    }
    glyphs.forEach((g, i) => cidOf.set(g, hex.slice(i * 4, i * 4 + 4)));
  }
  await document.flush();
  return new PreparedFace(shaper, { context: document.context, font: font.ref }, cidOf);
}

/** A face over a font pdf-lib embeds and subsets for this stamp alone: any text, at fontkit's cost. */
export function pdfLibFace(font: PDFFont): StampFace {
  const fontName = font.name.replace(/^[A-Z]{6}\+/, "");
  return {
    ref: font.ref,
    widthAtSizeOne: (text) => {
      const key = `${fontName}\u0000${text}`;
      let width = widthsAtSizeOne.get(key);
      if (width === undefined) {
        width = font.widthOfTextAtSize(text, 1);
        // bounded: signer data is client input; forgetting the oldest entry costs one more layout
        if (widthsAtSizeOne.size >= WIDTH_CACHE_LIMIT) widthsAtSizeOne.delete(widthsAtSizeOne.keys().next().value!);
        widthsAtSizeOne.set(key, width);
      }
      return width;
    },
    encodeText: (text) => font.encodeText(text),
  };
}

// Shared by every stamp of the process: labels and dates repeat; keyed by the font file's name, as each stamp has its own subset tag.
const widthsAtSizeOne = new Map<string, number>();
const WIDTH_CACHE_LIMIT = 20_000;

/**
 * Every stream pdf-lib deflates for a scratch document (font subsets, ToUnicode maps) goes
 * through node:zlib instead of pako: the same FlateDecode data, several times faster.
 */
export function deflateNatively(context: PDFContext): void {
  context.flateStream = (contents, dict = {}) => context.stream(deflateSync(typeof contents === "string" ? Buffer.from(contents, "latin1") : contents), { ...dict, Filter: "FlateDecode" });
}

// ISO 32000-1 9.6.4: a subset font's name starts with a six-capital tag and "+"; PDF/A checkers require it.
export function subsetName(postscriptName: string): string {
  return `${Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join("")}+${postscriptName}`;
}
