import { crc32 } from "node:zlib";

/** EXIF Orientation values: 1 upright, 2-4 mirrored/rotated, 5-8 quarter turns (width and height swap). */
export type ExifOrientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** What the magic bytes say; only "jpeg" and "png" are read further, the rest name a refusal. */
export type ImageFormat = "jpeg" | "png" | "GIF" | "WebP" | "HEIC" | "ISO (ftyp)" | "BMP" | "TIFF" | "PDF" | "desconocido";

export interface JpegHeader {
  format: "jpeg";
  /** Stored pixel size; `orientation` says how a viewer turns it. */
  width: number;
  height: number;
  orientation: ExifOrientation;
  /** 1 (gray), 3 (YCbCr/RGB) or 4 (CMYK/YCCK). */
  components: 1 | 3 | 4;
  /** SOF2: the picture arrives in several scans. */
  progressive: boolean;
  /** An Adobe APP14 segment means CMYK samples are stored inverted (Photoshop convention). */
  adobe: boolean;
}

export interface PngHeader {
  format: "png";
  width: number;
  height: number;
  /** PNG has no orientation that viewers agree on: always as stored. */
  orientation: 1;
  bitDepth: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA. */
  colorType: number;
}

export type ImageHeader = JpegHeader | PngHeader;

/** Why the bytes are refused; `message` is Spanish and safe to show to whoever uploaded them. */
export class ImageHeaderError extends Error {
  constructor(
    readonly format: ImageFormat,
    message: string,
  ) {
    super(message);
    this.name = "ImageHeaderError";
  }
}

/** Size as a viewer shows it, once the EXIF orientation is applied. */
export function displayedSize(header: Pick<ImageHeader, "width" | "height" | "orientation">): { width: number; height: number } {
  return header.orientation >= 5 ? { width: header.height, height: header.width } : { width: header.width, height: header.height };
}

/** Names the format from its magic bytes (never a file name), so a refusal says what was sent. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "jpeg";
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "png";
  if (ascii(0, 4) === "GIF8") return "GIF";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "WebP";
  if (ascii(4, 8) === "ftyp") return /^(heic|heix|hevc|mif1|msf1)$/.test(ascii(8, 12)) ? "HEIC" : "ISO (ftyp)";
  if (ascii(0, 2) === "BM") return "BMP";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "TIFF";
  if (ascii(0, 5) === "%PDF-") return "PDF";
  return "desconocido";
}

/**
 * Reads a JPEG or PNG's header without decoding pixels, and walks the whole file structure (JPEG
 * markers up to EOI, every PNG chunk CRC up to IEND), so truncated or garbled uploads are refused
 * before any decoding or queueing. Each step advances through the input: the cost is linear in its
 * length and no read leaves it.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = sniffImageFormat(bytes);
  if (format === "jpeg") return readJpeg(bytes);
  if (format === "png") return readPng(bytes);
  throw new ImageHeaderError(format, `formato ${format} no admitido; use JPG o PNG.`);
}

// Baseline, extended sequential and progressive Huffman: what PDF DCTDecode readers and jpeg-js support.
const SUPPORTED_SOF = new Set([0xc0, 0xc1, 0xc2]);
// Lossless, hierarchical and arithmetic-coded frames: valid JPEG, but many readers cannot show them.
const UNSUPPORTED_SOF = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
// Markers that may follow entropy-coded data in a valid file.
const AFTER_SCAN = new Set([0xc4, 0xcc, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xfe]);

type JpegFrame = Pick<JpegHeader, "width" | "height" | "components" | "progressive">;

const corruptJpeg = (reason: string) => new ImageHeaderError("jpeg", `La imagen JPEG está dañada o incompleta (${reason}).`);

function readJpeg(bytes: Uint8Array): JpegHeader {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw corruptJpeg("sin marcador SOI");
  let pos = 2;
  let frame: JpegFrame | undefined;
  let orientation: ExifOrientation | undefined;
  let adobe = false;
  let scans = 0;

  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) throw corruptJpeg(`byte inesperado en la posición ${pos}`);
    while (pos < bytes.length && bytes[pos] === 0xff) pos++; // fill bytes
    if (pos >= bytes.length) break;
    const marker = bytes[pos++];
    if (marker === 0xd9) {
      if (!frame || scans === 0) throw corruptJpeg("termina antes de la imagen");
      return { format: "jpeg", ...frame, orientation: orientation ?? 1, adobe };
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // standalone markers
    if (marker < 0xc0 || marker === 0xd8) throw corruptJpeg(`marcador 0x${marker.toString(16)} no válido`);
    if (pos + 2 > bytes.length) break;
    const length = (bytes[pos] << 8) | bytes[pos + 1];
    if (length < 2 || pos + length > bytes.length) break;
    const segment = bytes.subarray(pos + 2, pos + length);
    pos += length;

    if (SUPPORTED_SOF.has(marker)) {
      if (frame) throw corruptJpeg("más de un encabezado de imagen");
      frame = readFrame(segment, marker === 0xc2);
    } else if (UNSUPPORTED_SOF.has(marker)) {
      throw new ImageHeaderError("jpeg", "La codificación JPEG (sin pérdida, jerárquica o aritmética) no es compatible; use un JPEG estándar.");
    } else if (marker === 0xe1 && orientation === undefined && isExif(segment)) {
      // the first EXIF block is the camera's; later ones (editors' copies) do not override it
      orientation = readExifOrientation(segment);
    } else if (marker === 0xee && segment.length >= 5 && String.fromCharCode(...segment.subarray(0, 5)) === "Adobe") {
      adobe = true;
    } else if (marker === 0xda) {
      if (!frame) throw corruptJpeg("datos de imagen antes del encabezado");
      scans++;
      pos = skipEntropyCodedData(bytes, pos);
    }
  }
  throw corruptJpeg("archivo truncado");
}

function readFrame(segment: Uint8Array, progressive: boolean): JpegFrame {
  if (segment.length < 6) throw corruptJpeg("encabezado de imagen corto");
  const precision = segment[0];
  const height = (segment[1] << 8) | segment[2];
  const width = (segment[3] << 8) | segment[4];
  const components = segment[5];
  if (width === 0 || height === 0) throw new ImageHeaderError("jpeg", "La imagen JPEG declara un tamaño de 0 píxeles.");
  if (precision !== 8) throw new ImageHeaderError("jpeg", `JPEG de ${precision} bits por muestra no compatible; use 8 bits.`);
  if (components !== 1 && components !== 3 && components !== 4) throw corruptJpeg(`${components} componentes de color`);
  if (segment.length < 6 + components * 3) throw corruptJpeg("encabezado de imagen corto");
  return { width, height, components, progressive };
}

/** Returns the position of the marker that ends the scan; RSTn and stuffed 0xFF00 belong to the scan. */
function skipEntropyCodedData(bytes: Uint8Array, start: number): number {
  let pos = start;
  while (pos + 1 < bytes.length) {
    if (bytes[pos] !== 0xff) {
      pos++;
      continue;
    }
    const next = bytes[pos + 1];
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      pos += next === 0xff ? 1 : 2;
      continue;
    }
    if (AFTER_SCAN.has(next) || (next >= 0xe0 && next <= 0xef)) return pos;
    throw corruptJpeg(`marcador 0x${next.toString(16)} dentro de los datos de imagen`);
  }
  throw corruptJpeg("archivo truncado");
}

const isExif = (app1: Uint8Array) => app1.length >= 6 && String.fromCharCode(...app1.subarray(0, 6)) === "Exif\0\0";
const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;

/**
 * Reads the Orientation tag of IFD0 from an APP1 payload ("Exif\0\0" + TIFF). Anything malformed
 * or absent counts as upright, as image viewers do, rather than refusing the photo.
 */
function readExifOrientation(app1: Uint8Array): ExifOrientation {
  if (app1.length < 14) return 1;
  const tiff = new DataView(app1.buffer, app1.byteOffset + 6, app1.byteLength - 6);
  const order = tiff.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  if (tiff.getUint16(2, little) !== 42) return 1;
  const ifd = tiff.getUint32(4, little);
  if (ifd + 2 > tiff.byteLength) return 1;
  const count = tiff.getUint16(ifd, little);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.byteLength) return 1;
    if (tiff.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    if (tiff.getUint16(entry + 2, little) !== TYPE_SHORT) return 1;
    const value = tiff.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? (value as ExifOrientation) : 1;
  }
  return 1;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DEPTHS_BY_COLOR_TYPE: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

const corruptPng = (reason: string) => new ImageHeaderError("png", `La imagen PNG está dañada o incompleta (${reason}).`);

function readPng(bytes: Uint8Array): PngHeader {
  if (bytes.length < 8 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) throw corruptPng("firma PNG ausente");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let header: PngHeader | undefined;
  let hasPalette = false;
  let hasData = false;

  while (pos + 12 <= bytes.length) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (length > bytes.length - pos - 12) break;
    const body = bytes.subarray(pos + 8, pos + 8 + length);
    if (crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)) {
      throw corruptPng(`CRC incorrecto en el bloque ${type}`);
    }
    pos += 12 + length;

    if (!header && type !== "IHDR") throw corruptPng("falta el encabezado IHDR");
    if (type === "IHDR") {
      if (header) throw corruptPng("IHDR repetido");
      header = readIhdr(body);
    } else if (type === "PLTE") {
      hasPalette = true;
    } else if (type === "IDAT") {
      hasData = true;
    } else if (type === "IEND") {
      if (!header || !hasData) throw corruptPng("sin datos de imagen");
      if (header.colorType === 3 && !hasPalette) throw corruptPng("falta la paleta");
      return header;
    }
  }
  throw corruptPng("archivo truncado");
}

function readIhdr(body: Uint8Array): PngHeader {
  if (body.length !== 13) throw corruptPng("IHDR de tamaño incorrecto");
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [bitDepth, colorType, compression, filter, interlace] = body.subarray(8, 13);
  if (width === 0 || height === 0) throw new ImageHeaderError("png", "La imagen PNG declara un tamaño de 0 píxeles.");
  if (!DEPTHS_BY_COLOR_TYPE[colorType]?.includes(bitDepth)) throw corruptPng(`tipo de color ${colorType} con ${bitDepth} bits`);
  if (compression !== 0 || filter !== 0 || interlace > 1) throw corruptPng("método de compresión desconocido");
  return { format: "png", width, height, orientation: 1, bitDepth, colorType };
}
