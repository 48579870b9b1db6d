import { create, type BitMatrix } from "qrcode";
import { StampError } from "@/lib/stamp/errors";
import type { StampBox } from "@/lib/stamp/layout-stamp";

const QUIET_ZONE = 4;
// Below this a printed code stops decoding reliably with phone cameras and 150 dpi scans.
export const MIN_QR_MODULE = 0.85;

/**
 * The QR as content-stream operators: a matrix that makes one module one unit, then each horizontal
 * run of dark modules as an `re` with integer operands, all filled as one path so anti-aliasing
 * leaves no seams between rows. Written as text: a few thousand pdf-lib operator objects cost more
 * than the QR code itself. Byte mode over UTF-8, error correction M.
 */
export function drawQrCode(text: string, box: StampBox): string {
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
  const bottom = box.y + (box.height - side) / 2 + QUIET_ZONE * moduleSize;

  const size = modules.size;
  const bits = modules.data;
  const runs: string[] = [`q 0 g ${moduleSize} 0 0 ${moduleSize} ${left} ${bottom} cm`];
  for (let row = 0; row < size; row++) {
    // module rows run top-down, PDF y runs up
    const y = size - 1 - row;
    for (let col = 0; col < size; col++) {
      if (!bits[row * size + col]) continue;
      let end = col;
      while (end + 1 < size && bits[row * size + end + 1]) end++;
      runs.push(`${col} ${y} ${end + 1 - col} 1 re`);
      col = end;
    }
  }
  runs.push("f Q");
  return runs.join("\n");
}
