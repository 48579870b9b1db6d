/** EXIF Orientation values: 1 upright, 2-4 mirrored/rotated, 5-8 quarter turns (width and height swap). */
export type ExifOrientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;

/**
 * Reads the Orientation tag of IFD0 from an APP1 segment payload ("Exif\0\0" + TIFF). Anything
 * malformed or absent counts as upright, as image viewers do, rather than refusing the photo.
 */
export function readExifOrientation(app1: Uint8Array): ExifOrientation {
  if (app1.length < 14 || String.fromCharCode(...app1.subarray(0, 6)) !== "Exif\0\0") return 1;
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
