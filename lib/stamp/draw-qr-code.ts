import { closePath, fill, lineTo, moveTo, popGraphicsState, pushGraphicsState, setFillingGrayscaleColor, type PDFOperator } from "pdf-lib";
import { create, type BitMatrix } from "qrcode";
import { StampError } from "@/lib/stamp/errors";
import type { StampBox } from "@/lib/stamp/layout-stamp";

const QUIET_ZONE = 4;
// Below this a printed code stops decoding reliably with phone cameras and 150 dpi scans.
export const MIN_QR_MODULE = 0.85;

/**
 * The QR as vector operators: dark modules merged into horizontal runs, all filled as one path so
 * anti-aliasing leaves no seams between rows. Byte mode over UTF-8, error correction M.
 */
export function drawQrCode(text: string, box: StampBox): PDFOperator[] {
  let modules: BitMatrix;
  try {
    // an explicit byte segment keeps the text's UTF-8 bytes verbatim (no mode switching, no Kanji)
    modules = create([{ data: new TextEncoder().encode(text), mode: "byte" }], { errorCorrectionLevel: "M" }).modules;
  } catch {
    throw new StampError("INVALID_QR", "El texto del QR es demasiado largo para un código QR.");
  }
  const side = Math.min(box.width, box.height);
  const moduleSize = side / (modules.size + 2 * QUIET_ZONE);
  if (moduleSize < MIN_QR_MODULE) {
    throw new StampError(
      "INVALID_QR",
      `El texto del QR es demasiado largo para este tamaño de sello (${modules.size} módulos); acorte el texto o use stamp_size 2.`,
    );
  }
  const left = box.x + (box.width - side) / 2 + QUIET_ZONE * moduleSize;
  const top = box.y + (box.height + side) / 2 - QUIET_ZONE * moduleSize;

  const ops: PDFOperator[] = [pushGraphicsState(), setFillingGrayscaleColor(0)];
  for (let row = 0; row < modules.size; row++) {
    const y1 = top - row * moduleSize;
    const y0 = y1 - moduleSize;
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      let end = col;
      while (end + 1 < modules.size && modules.get(row, end + 1)) end++;
      const x0 = left + col * moduleSize;
      const x1 = left + (end + 1) * moduleSize;
      ops.push(moveTo(round(x0), round(y0)), lineTo(round(x1), round(y0)), lineTo(round(x1), round(y1)), lineTo(round(x0), round(y1)), closePath());
      col = end;
    }
  }
  ops.push(fill(), popGraphicsState());
  return ops;
}

// Four decimals keep the content stream small while staying far below a device pixel.
function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
