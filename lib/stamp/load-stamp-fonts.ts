import { readFile } from "node:fs/promises";
import path from "node:path";
import fontkit from "@pdf-lib/fontkit";

export interface StampFontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

let cached: Promise<StampFontFiles> | undefined;

/** Reads the DejaVu Sans files once per process; every stamp embeds a subset of them. */
export function loadStampFonts(): Promise<StampFontFiles> {
  cached ??= (async () => {
    const dir = path.join(process.cwd(), "assets", "fonts");
    const [regular, bold] = await Promise.all([
      readFile(path.join(dir, "DejaVuSans.ttf")),
      readFile(path.join(dir, "DejaVuSans-Bold.ttf")),
    ]);
    return { regular: new Uint8Array(regular), bold: new Uint8Array(bold) };
  })();
  // a failed read (missing assets) must not stay cached forever
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

type Fontkit = typeof fontkit;
type ParsedFont = ReturnType<Fontkit["create"]>;
const parsed = new WeakMap<Uint8Array, ParsedFont>();

/**
 * fontkit for pdf-lib that parses each font file once per thread: decoding DejaVu Sans (directory,
 * cmap, GSUB/GPOS, metrics) was most of a stamp's cost. Each document gets its own view of the
 * parsed font, sharing the decoded tables but with its own glyph cache and layout engine: fontkit
 * remembers a glyph with the characters it was first reached from, and the subset's ToUnicode map
 * is built from those, so glyph objects must not outlive their document.
 */
export const parsedOnceFontkit: Fontkit = {
  ...fontkit,
  create(buffer: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    let font = parsed.get(buffer);
    if (!font) {
      font = fontkit.create(buffer);
      parsed.set(buffer, font);
    }
    const view = Object.create(font) as ParsedFont & { _glyphs: Record<number, unknown> };
    view._glyphs = {};
    return view;
  },
};
