import { ImageHeaderError } from "./read-image-header";

/** A still WebP image's size as its header declares it, read without decoding any pixels. */
export interface WebpHeader {
  format: "webp";
  width: number;
  height: number;
  /** WebP viewers ignore EXIF orientation: the picture is shown as stored. */
  orientation: 1;
  lossless: boolean;
}

const corruptWebp = (reason: string) => new ImageHeaderError("WebP", `La imagen WebP está dañada o incompleta (${reason}).`);

/**
 * Walks a WebP file's RIFF chunks (each must fit inside the file) and reads the declared size from
 * VP8X, VP8 or VP8L, so a caller can refuse a huge or truncated file before the decoder allocates
 * anything. Animated WebP is refused: a face check needs one still picture.
 */
export function readWebpHeader(bytes: Uint8Array): WebpHeader {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length < 20 || ascii(0, 4) !== "RIFF" || ascii(8, 12) !== "WEBP") throw corruptWebp("sin cabecera RIFF/WEBP");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > bytes.length) throw corruptWebp("archivo truncado");
  let canvas: { width: number; height: number } | undefined;
  let pos = 12;
  while (pos + 8 <= riffEnd) {
    const type = ascii(pos, pos + 4);
    const length = view.getUint32(pos + 4, true);
    const body = pos + 8;
    if (length > riffEnd - body) throw corruptWebp(`bloque ${type.trim()} más largo que el archivo`);
    if (type === "VP8X") {
      if (length < 10) throw corruptWebp("VP8X corto");
      if (bytes[body] & 0x02) throw new ImageHeaderError("WebP", "La imagen WebP es animada; use una foto fija.");
      canvas = { width: 1 + readUint24(bytes, body + 4), height: 1 + readUint24(bytes, body + 7) };
    } else if (type === "ANIM" || type === "ANMF") {
      throw new ImageHeaderError("WebP", "La imagen WebP es animada; use una foto fija.");
    } else if (type === "VP8 " || type === "VP8L") {
      const frame = type === "VP8 " ? readLossy(bytes, body, length) : readLossless(bytes, body, length);
      // a VP8X canvas must be the frame's size: the decoder answers the canvas, the limits read the frame
      if (canvas && (canvas.width !== frame.width || canvas.height !== frame.height)) throw corruptWebp("lienzo y fotograma de tamaños distintos");
      return { format: "webp", ...frame, orientation: 1, lossless: type === "VP8L" };
    }
    pos = body + length + (length & 1); // chunks are padded to an even length
  }
  throw corruptWebp("sin datos de imagen");
}

function readUint24(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
}

/** VP8 key frame: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height. */
function readLossy(bytes: Uint8Array, at: number, length: number): { width: number; height: number } {
  if (length < 10) throw corruptWebp("VP8 corto");
  if ((bytes[at] & 0x01) !== 0) throw corruptWebp("VP8 sin fotograma clave");
  if (bytes[at + 3] !== 0x9d || bytes[at + 4] !== 0x01 || bytes[at + 5] !== 0x2a) throw corruptWebp("VP8 sin código de inicio");
  const width = (bytes[at + 6] | (bytes[at + 7] << 8)) & 0x3fff;
  const height = (bytes[at + 8] | (bytes[at + 9] << 8)) & 0x3fff;
  if (width === 0 || height === 0) throw new ImageHeaderError("WebP", "La imagen WebP declara un tamaño de 0 píxeles.");
  return { width, height };
}

/** VP8L: signature 0x2f, then 14 bits of width − 1 and 14 bits of height − 1, little-endian. */
function readLossless(bytes: Uint8Array, at: number, length: number): { width: number; height: number } {
  if (length < 5 || bytes[at] !== 0x2f) throw corruptWebp("VP8L sin firma");
  const bits = bytes[at + 1] | (bytes[at + 2] << 8) | (bytes[at + 3] << 16) | (bytes[at + 4] << 24);
  if (bits >>> 29 !== 0) throw corruptWebp("versión VP8L desconocida");
  return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
}
