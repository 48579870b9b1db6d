import { readFile } from "node:fs/promises";
import path from "node:path";

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
