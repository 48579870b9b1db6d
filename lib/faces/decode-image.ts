import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { decodeWebp } from "@/lib/images/decode-webp";
import { displayedSize, ImageHeaderError, readImageHeader, sniffImageFormat, type ExifOrientation, type ImageHeader } from "@/lib/images/read-image-header";
import { readWebpHeader, type WebpHeader } from "@/lib/images/read-webp-header";
import { FaceError } from "./face-error";

/** Packed 8-bit RGB pixels, upright (EXIF orientation applied), at most `maxSide` on the long side. */
export interface DecodedImage {
  data: Uint8Array;
  width: number;
  height: number;
  /** Upright size of the image as uploaded, before downscaling. */
  originalWidth: number;
  originalHeight: number;
}

/** Faces are found at 256 px and embedded at 224 px: more resolution only costs memory and time. */
export const DEFAULT_MAX_SIDE = 1024;
/** jpeg-js holds ~12 bytes per pixel while decoding: 25 MP keeps one decode near 300 MB. */
export const MAX_MEGAPIXELS = 25;
const MAX_DECODE_MB = 512;

/**
 * Decodes JPEG, PNG or WebP bytes (sniffed from content, never from a name) without native modules,
 * applies EXIF orientation, flattens alpha on white and box-downscales to `maxSide`. The declared
 * size is checked against MAX_MEGAPIXELS before any decoder runs (a "bomb" never allocates).
 */
export async function decodeImage(bytes: Uint8Array, maxSide = DEFAULT_MAX_SIDE): Promise<DecodedImage> {
  const header = readHeader(bytes);
  if (header.width * header.height > MAX_MEGAPIXELS * 1e6) throw new FaceError("INVALID_IMAGE", `más de ${MAX_MEGAPIXELS} megapíxeles`);
  const raw = header.format === "jpeg" ? decodeJpeg(bytes) : header.format === "png" ? decodePng(bytes) : await decodeWebpPixels(bytes);
  if (raw.width !== header.width || raw.height !== header.height) throw new FaceError("INVALID_IMAGE", "tamaño distinto del encabezado");
  const scale = Math.min(1, maxSide / Math.max(raw.width, raw.height));
  const small = scale < 1 ? boxDownscale(raw, Math.max(1, Math.round(raw.width * scale)), Math.max(1, Math.round(raw.height * scale))) : raw;
  const upright = orient(small, header.orientation);
  const original = displayedSize(header);
  return { ...upright, originalWidth: original.width, originalHeight: original.height };
}

interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The shared header walk refuses truncated, garbled and unsupported files before any decoding. */
function readHeader(bytes: Uint8Array): ImageHeader | WebpHeader {
  try {
    return sniffImageFormat(bytes) === "WebP" ? readWebpHeader(bytes) : readImageHeader(bytes);
  } catch (error) {
    if (error instanceof ImageHeaderError) throw new FaceError("INVALID_IMAGE", error.message);
    throw error;
  }
}

function decodeJpeg(bytes: Uint8Array): Rgb {
  try {
    // tolerantDecoding off: a truncated upload is refused rather than analysed half grey
    const image = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: false,
      tolerantDecoding: false,
      maxResolutionInMP: MAX_MEGAPIXELS,
      maxMemoryUsageInMB: MAX_DECODE_MB,
    });
    if (image.data.length < image.width * image.height * 3) throw new Error("short pixel buffer");
    return { data: image.data, width: image.width, height: image.height };
  } catch (error) {
    throw new FaceError("INVALID_IMAGE", `JPEG: ${(error as Error).message}`);
  }
}

async function decodeWebpPixels(bytes: Uint8Array): Promise<Rgb> {
  let rgba: Uint8ClampedArray;
  let width: number;
  let height: number;
  try {
    ({ data: rgba, width, height } = await decodeWebp(bytes));
  } catch (error) {
    throw new FaceError("INVALID_IMAGE", `WebP: ${(error as Error).message}`);
  }
  return { data: flattenOnWhite(rgba), width, height };
}

function decodePng(bytes: Uint8Array): Rgb {
  let png: PNG;
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw new FaceError("INVALID_IMAGE", `PNG: ${(error as Error).message}`);
  }
  // pngjs always yields 8-bit RGBA
  return { data: flattenOnWhite(png.data), width: png.width, height: png.height };
}

/** RGBA to RGB; transparent areas become white, as on a printed ID photo. */
function flattenOnWhite(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const data = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    const alpha = rgba[i + 3] / 255;
    data[j] = Math.round(rgba[i] * alpha + 255 * (1 - alpha));
    data[j + 1] = Math.round(rgba[i + 1] * alpha + 255 * (1 - alpha));
    data[j + 2] = Math.round(rgba[i + 2] * alpha + 255 * (1 - alpha));
  }
  return data;
}

/** Area-average resize: no aliasing on large downscales, and one pass over the source. */
function boxDownscale(source: Rgb, width: number, height: number): Rgb {
  const data = new Uint8Array(width * height * 3);
  const fx = source.width / width;
  const fy = source.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.min(source.height, Math.floor((y + 1) * fy)));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.min(source.width, Math.floor((x + 1) * fx)));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        let i = (sy * source.width + x0) * 3;
        for (let sx = x0; sx < x1; sx++, i += 3) {
          r += source.data[i];
          g += source.data[i + 1];
          b += source.data[i + 2];
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 3;
      data[o] = r / n;
      data[o + 1] = g / n;
      data[o + 2] = b / n;
    }
  }
  return { data, width, height };
}

/** Maps stored pixels to display orientation (EXIF 2–8: mirror and/or rotate). */
function orient(source: Rgb, orientation: ExifOrientation): Rgb {
  if (orientation === 1) return source;
  const { width: w, height: h } = source;
  const swapped = orientation >= 5;
  const width = swapped ? h : w;
  const height = swapped ? w : h;
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [dx, dy] = destination(orientation, x, y, w, h);
      const s = (y * w + x) * 3;
      const d = (dy * width + dx) * 3;
      data[d] = source.data[s];
      data[d + 1] = source.data[s + 1];
      data[d + 2] = source.data[s + 2];
    }
  }
  return { data, width, height };
}

function destination(orientation: ExifOrientation, x: number, y: number, w: number, h: number): [number, number] {
  switch (orientation) {
    case 2: return [w - 1 - x, y];
    case 3: return [w - 1 - x, h - 1 - y];
    case 4: return [x, h - 1 - y];
    case 5: return [y, x];
    case 6: return [h - 1 - y, x];
    case 7: return [h - 1 - y, w - 1 - x];
    case 8: return [y, w - 1 - x];
    default: return [x, y];
  }
}
