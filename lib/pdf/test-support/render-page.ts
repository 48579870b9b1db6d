import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PNG } from "pngjs";

export interface RenderedPage {
  width: number;
  height: number;
  /** Share of non-white pixels inside a box given in image pixels (origin top-left). */
  inkRatio(box: PixelBox): number;
  /** Bounding box of dark pixels (text strokes) inside `box`, or undefined when there are none. */
  darkBounds(box: PixelBox): PixelBox | undefined;
}

export interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Renders one page (1-based) at 72 dpi with pdftoppm, CropBox only: one pixel per point of the visible page. */
export function renderPage(pdf: Uint8Array, pageNumber: number): RenderedPage {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-render-"));
  const input = path.join(dir, "in.pdf");
  writeFileSync(input, pdf);
  execFileSync("pdftoppm", ["-r", "72", "-cropbox", "-png", "-f", String(pageNumber), "-l", String(pageNumber), "-singlefile", input, path.join(dir, "page")]);
  const png = PNG.sync.read(readFileSync(path.join(dir, "page.png")));
  return {
    width: png.width,
    height: png.height,
    inkRatio({ left, top, right, bottom }) {
      let ink = 0;
      let total = 0;
      for (let y = Math.max(0, Math.round(top)); y < Math.min(png.height, Math.round(bottom)); y++) {
        for (let x = Math.max(0, Math.round(left)); x < Math.min(png.width, Math.round(right)); x++) {
          const i = (y * png.width + x) * 4;
          total++;
          if (png.data[i] < 235 || png.data[i + 1] < 235 || png.data[i + 2] < 235) ink++;
        }
      }
      return total === 0 ? 0 : ink / total;
    },
    darkBounds({ left, top, right, bottom }) {
      let found: PixelBox | undefined;
      for (let y = Math.max(0, Math.round(top)); y < Math.min(png.height, Math.round(bottom)); y++) {
        for (let x = Math.max(0, Math.round(left)); x < Math.min(png.width, Math.round(right)); x++) {
          const i = (y * png.width + x) * 4;
          if (png.data[i] + png.data[i + 1] + png.data[i + 2] > 300) continue;
          found = found
            ? { left: Math.min(found.left, x), top: Math.min(found.top, y), right: Math.max(found.right, x), bottom: Math.max(found.bottom, y) }
            : { left: x, top: y, right: x, bottom: y };
        }
      }
      return found;
    },
  };
}
