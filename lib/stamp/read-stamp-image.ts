import { displayedSize, ImageHeaderError, readImageHeader, sniffImageFormat, type ExifOrientation, type ImageHeader } from "@/lib/images/read-image-header";
import { StampError } from "@/lib/stamp/errors";

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

  const format = sniffImageFormat(bytes);
  if (format !== "jpeg" && format !== "png") {
    throw new StampError("INVALID_IMAGE", `${label}: formato ${format} no admitido; use JPG o PNG.`);
  }

  const image = toStampImage(readHeader(bytes), bytes);
  const kind = image.kind;
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

function readHeader(bytes: Uint8Array): ImageHeader {
  try {
    return readImageHeader(bytes);
  } catch (error) {
    if (error instanceof ImageHeaderError) throw new StampError("INVALID_IMAGE", error.message);
    throw error;
  }
}

function toStampImage(header: ImageHeader, bytes: Uint8Array): StampImage {
  const displayed = displayedSize(header);
  return {
    kind: header.format === "jpeg" ? "jpg" : "png",
    width: header.width,
    height: header.height,
    orientedWidth: displayed.width,
    orientedHeight: displayed.height,
    orientation: header.orientation,
    ...(header.format === "jpeg" ? { components: header.components, adobe: header.adobe } : {}),
    bytes: new Uint8Array(bytes),
  };
}
