import { StampError } from "@/lib/stamp/errors";
import { readExifOrientation, type ExifOrientation } from "@/lib/stamp/read-exif-orientation";

export interface JpegInfo {
  width: number;
  height: number;
  /** 1 (gray), 3 (YCbCr/RGB) or 4 (CMYK/YCCK). */
  components: 1 | 3 | 4;
  orientation: ExifOrientation;
  /** An Adobe APP14 segment means CMYK samples are stored inverted (Photoshop convention). */
  adobe: boolean;
}

// Baseline, extended sequential and progressive Huffman: what PDF DCTDecode readers all support.
const SUPPORTED_SOF = new Set([0xc0, 0xc1, 0xc2]);
// Lossless, hierarchical and arithmetic-coded frames: valid JPEG, but many PDF readers cannot show them.
const UNSUPPORTED_SOF = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
// Markers that may follow entropy-coded data in a valid file.
const AFTER_SCAN = new Set([0xc4, 0xcc, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xfe]);

function corrupt(reason: string): StampError {
  return new StampError("INVALID_IMAGE", `La imagen JPEG está dañada o incompleta (${reason}).`);
}

/**
 * Walks the JPEG marker structure up to EOI without decoding pixels, so a 48-megapixel photo costs
 * no memory: reads the frame size, the EXIF orientation, and refuses truncated or garbled files.
 */
export function inspectJpeg(bytes: Uint8Array): JpegInfo {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw corrupt("sin marcador SOI");
  let pos = 2;
  let frame: Omit<JpegInfo, "orientation" | "adobe"> | undefined;
  let orientation: ExifOrientation = 1;
  let adobe = false;
  let scans = 0;

  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) throw corrupt(`byte inesperado en la posición ${pos}`);
    while (pos < bytes.length && bytes[pos] === 0xff) pos++; // fill bytes
    if (pos >= bytes.length) break;
    const marker = bytes[pos++];
    if (marker === 0xd9) {
      if (!frame || scans === 0) throw corrupt("termina antes de la imagen");
      return { ...frame, orientation, adobe };
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // standalone markers
    if (marker < 0xc0 || marker === 0xd8) throw corrupt(`marcador 0x${marker.toString(16)} no válido`);
    if (pos + 2 > bytes.length) break;
    const length = (bytes[pos] << 8) | bytes[pos + 1];
    if (length < 2 || pos + length > bytes.length) break;
    const segment = bytes.subarray(pos + 2, pos + length);
    pos += length;

    if (SUPPORTED_SOF.has(marker)) {
      if (frame) throw corrupt("más de un encabezado de imagen");
      frame = readFrame(segment);
    } else if (UNSUPPORTED_SOF.has(marker)) {
      throw new StampError("INVALID_IMAGE", "La codificación JPEG (sin pérdida, jerárquica o aritmética) no es compatible; use un JPEG estándar.");
    } else if (marker === 0xe1 && orientation === 1) {
      orientation = readExifOrientation(segment);
    } else if (marker === 0xee && segment.length >= 5 && String.fromCharCode(...segment.subarray(0, 5)) === "Adobe") {
      adobe = true;
    } else if (marker === 0xda) {
      if (!frame) throw corrupt("datos de imagen antes del encabezado");
      scans++;
      pos = skipEntropyCodedData(bytes, pos);
    }
  }
  throw corrupt("archivo truncado");
}

function readFrame(segment: Uint8Array): Omit<JpegInfo, "orientation" | "adobe"> {
  if (segment.length < 6) throw corrupt("encabezado de imagen corto");
  const precision = segment[0];
  const height = (segment[1] << 8) | segment[2];
  const width = (segment[3] << 8) | segment[4];
  const components = segment[5];
  if (width === 0 || height === 0) throw new StampError("INVALID_IMAGE", "La imagen JPEG declara un tamaño de 0 píxeles.");
  if (precision !== 8) throw new StampError("INVALID_IMAGE", `JPEG de ${precision} bits por muestra no compatible; use 8 bits.`);
  if (components !== 1 && components !== 3 && components !== 4) throw corrupt(`${components} componentes de color`);
  if (segment.length < 6 + components * 3) throw corrupt("encabezado de imagen corto");
  return { width, height, components };
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
    throw corrupt(`marcador 0x${next.toString(16)} dentro de los datos de imagen`);
  }
  throw corrupt("archivo truncado");
}
