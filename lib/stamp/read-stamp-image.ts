import { StampError } from "@/lib/stamp/errors";
import { inspectJpeg } from "@/lib/stamp/inspect-jpeg";
import { inspectPng } from "@/lib/stamp/inspect-png";
import type { ExifOrientation } from "@/lib/stamp/read-exif-orientation";

export interface StampImage {
  kind: "jpg" | "png";
  /** Stored pixel size. */
  width: number;
  height: number;
  /** Size as displayed once the EXIF orientation is applied; the portrait rule uses this. */
  orientedWidth: number;
  orientedHeight: number;
  orientation: ExifOrientation;
  /** JPEG only: 1, 3 or 4 color components, and whether CMYK is stored inverted (Adobe). */
  components?: 1 | 3 | 4;
  adobe?: boolean;
  /** A private copy: callers may reuse their buffer, and pdf-lib-style readers assume offset 0. */
  bytes: Uint8Array;
}

// JPEGs are embedded as they are (never decoded here), so only absurd sizes are refused.
const MAX_JPEG_PIXELS = 100_000_000;
// PNGs are decoded and downscaled before embedding; this bounds that memory (~4096 x 4096).
export const MAX_PNG_PIXELS = 16_777_216;

/**
 * Validates an uploaded stamp image by its content (never its file name): JPEG or PNG, intact,
 * and portrait or square as displayed.
 */
export function readStampImage(bytes: Uint8Array, declaredName?: string): StampImage {
  const label = declaredName ? `"${declaredName}"` : "La imagen";
  if (bytes.length === 0) throw new StampError("INVALID_IMAGE", `${label}: el archivo está vacío.`);

  const kind = sniffFormat(bytes);
  if (kind !== "jpg" && kind !== "png") {
    throw new StampError("INVALID_IMAGE", `${label}: formato ${kind} no admitido; use JPG o PNG.`);
  }

  const image = kind === "jpg" ? fromJpeg(bytes) : fromPng(bytes);
  const pixels = image.width * image.height;
  const limit = kind === "jpg" ? MAX_JPEG_PIXELS : MAX_PNG_PIXELS;
  if (pixels > limit) {
    throw new StampError(
      "INVALID_IMAGE",
      `${label}: ${image.width}x${image.height} px excede el máximo de ${Math.round(limit / 1e6)} megapíxeles para ${kind.toUpperCase()}.`,
    );
  }
  if (image.orientedHeight < image.orientedWidth) {
    throw new StampError(
      "IMAGE_NOT_PORTRAIT",
      `${label}: la imagen debe ser vertical o cuadrada (alto >= ancho); mide ${image.orientedWidth}x${image.orientedHeight} px.`,
    );
  }
  return image;
}

function fromJpeg(bytes: Uint8Array): StampImage {
  const info = inspectJpeg(bytes);
  const swapped = info.orientation >= 5;
  return {
    kind: "jpg",
    width: info.width,
    height: info.height,
    orientedWidth: swapped ? info.height : info.width,
    orientedHeight: swapped ? info.width : info.height,
    orientation: info.orientation,
    components: info.components,
    adobe: info.adobe,
    bytes: new Uint8Array(bytes),
  };
}

function fromPng(bytes: Uint8Array): StampImage {
  const info = inspectPng(bytes);
  return {
    kind: "png",
    width: info.width,
    height: info.height,
    orientedWidth: info.width,
    orientedHeight: info.height,
    orientation: 1,
    bytes: new Uint8Array(bytes),
  };
}

/** Names the format from its magic bytes, so the refusal can say what was actually sent. */
function sniffFormat(bytes: Uint8Array): "jpg" | "png" | string {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "jpg";
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (ascii(0, 4) === "GIF8") return "GIF";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "WebP";
  if (ascii(4, 8) === "ftyp") return /^(heic|heix|hevc|mif1|msf1)$/.test(ascii(8, 12)) ? "HEIC" : "ISO (ftyp)";
  if (ascii(0, 2) === "BM") return "BMP";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "TIFF";
  if (ascii(0, 5) === "%PDF-") return "PDF";
  return "desconocido";
}
