import { crc32 } from "node:zlib";
import { StampError } from "@/lib/stamp/errors";

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA. */
  colorType: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DEPTHS_BY_COLOR_TYPE: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

function corrupt(reason: string): StampError {
  return new StampError("INVALID_IMAGE", `La imagen PNG está dañada o incompleta (${reason}).`);
}

/**
 * Walks the PNG chunks and checks every CRC up to IEND without inflating pixels, so truncated or
 * bit-flipped uploads are refused before any work is queued.
 */
export function inspectPng(bytes: Uint8Array): PngInfo {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw corrupt("firma PNG ausente");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let info: PngInfo | undefined;
  let hasPalette = false;
  let hasData = false;

  while (pos + 12 <= bytes.length) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (length > bytes.length - pos - 12) break;
    const body = bytes.subarray(pos + 8, pos + 8 + length);
    if (crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)) {
      throw corrupt(`CRC incorrecto en el bloque ${type}`);
    }
    pos += 12 + length;

    if (!info && type !== "IHDR") throw corrupt("falta el encabezado IHDR");
    if (type === "IHDR") {
      if (info) throw corrupt("IHDR repetido");
      info = readHeader(body);
    } else if (type === "PLTE") {
      hasPalette = true;
    } else if (type === "IDAT") {
      hasData = true;
    } else if (type === "IEND") {
      if (!info || !hasData) throw corrupt("sin datos de imagen");
      if (info.colorType === 3 && !hasPalette) throw corrupt("falta la paleta");
      return info;
    }
  }
  throw corrupt("archivo truncado");
}

function readHeader(body: Uint8Array): PngInfo {
  if (body.length !== 13) throw corrupt("IHDR de tamaño incorrecto");
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [bitDepth, colorType, compression, filter, interlace] = body.subarray(8, 13);
  if (width === 0 || height === 0) throw new StampError("INVALID_IMAGE", "La imagen PNG declara un tamaño de 0 píxeles.");
  if (!DEPTHS_BY_COLOR_TYPE[colorType]?.includes(bitDepth)) throw corrupt(`tipo de color ${colorType} con ${bitDepth} bits`);
  if (compression !== 0 || filter !== 0 || interlace > 1) throw corrupt("método de compresión desconocido");
  return { width, height, bitDepth, colorType };
}
