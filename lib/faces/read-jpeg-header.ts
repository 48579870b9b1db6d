/** EXIF orientation values 1–8 (1 = as stored); phones store portraits sideways and set 6 or 8. */
export type ExifOrientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** What the marker segments before the first scan say; 0×0 when no frame header was found. */
export interface JpegHeader {
  width: number;
  height: number;
  orientation: ExifOrientation;
}

/**
 * Reads frame size (SOFn) and EXIF Orientation from a JPEG's marker headers, so oversized uploads
 * are refused before decoding. A malformed EXIF block counts as orientation 1: the pixels still decode.
 */
export function readJpegHeader(jpeg: Uint8Array): JpegHeader {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  const header: JpegHeader = { width: 0, height: 0, orientation: 1 };
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1];
    // SOS (start of scan) or EOI: headers come before it
    if (marker === 0xda || marker === 0xd9) break;
    const length = view.getUint16(offset + 2);
    if (length < 2) break;
    if (marker === 0xe1 && isExifHeader(jpeg, offset + 4)) {
      header.orientation = orientationFromTiff(view, offset + 10, Math.min(offset + 2 + length, jpeg.length));
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && offset + 9 <= jpeg.length) {
      header.height = view.getUint16(offset + 5);
      header.width = view.getUint16(offset + 7);
    }
    offset += 2 + length;
  }
  return header;
}

function isExifHeader(bytes: Uint8Array, at: number): boolean {
  // "Exif\0\0"
  return bytes[at] === 0x45 && bytes[at + 1] === 0x78 && bytes[at + 2] === 0x69 && bytes[at + 3] === 0x66 && bytes[at + 4] === 0 && bytes[at + 5] === 0;
}

function orientationFromTiff(view: DataView, tiff: number, end: number): ExifOrientation {
  if (tiff + 8 > end) return 1;
  const byteOrder = view.getUint16(tiff);
  if (byteOrder !== 0x4949 && byteOrder !== 0x4d4d) return 1;
  const little = byteOrder === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? (value as ExifOrientation) : 1;
    }
  }
  return 1;
}
