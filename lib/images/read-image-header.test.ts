import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeImage } from "@/lib/faces/decode-image";
import { FaceError } from "@/lib/faces/face-error";
import { displayedSize, ImageHeaderError, readImageHeader, type ImageHeader } from "@/lib/images/read-image-header";
import { StampError } from "@/lib/stamp/errors";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("images");
const read = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

const jpeg = (width: number, height: number, extra: Partial<ImageHeader> = {}) => ({
  format: "jpeg",
  width,
  height,
  orientation: 1,
  components: 3,
  progressive: false,
  adobe: false,
  ...extra,
});
const png = (width: number, height: number, bitDepth: number, colorType: number) => ({ format: "png", width, height, orientation: 1, bitDepth, colorType });

// Every file of the fixture folder must appear here, so a new fixture cannot go untested.
const EXPECTED: Record<string, object | RegExp> = {
  "almost-square-landscape-601x600.jpg": jpeg(601, 600),
  "almost-square-portrait-600x601.jpg": jpeg(600, 601),
  "corrupt-truncated.jpg": /truncado/,
  "corrupt-zero-size-garbled.jpg": /0 píxeles/,
  "jpeg-content-with-png-extension.png": jpeg(413, 531),
  "landscape-910x600.jpg": jpeg(910, 600),
  "landscape-stored-portrait-exif-orientation6.jpg": jpeg(600, 910, { orientation: 6 }),
  "large-6000x8000.jpg": jpeg(6000, 8000),
  "make.sh": /formato desconocido no admitido/,
  "portrait-16bit-240x320.png": png(240, 320, 16, 2),
  "portrait-413x531.jpg": jpeg(413, 531),
  "portrait-alpha-413x531.png": png(413, 531, 8, 6),
  "portrait-cmyk.jpg": jpeg(413, 531, { components: 4, adobe: true }),
  "portrait-progressive.jpg": jpeg(413, 531, { progressive: true }),
  "portrait-stored-landscape-exif-orientation6.jpg": jpeg(531, 413, { orientation: 6 }),
  "square-600x600.png": png(600, 600, 8, 2),
  "tiny-1x1.jpg": jpeg(1, 1),
  "tiny-1x1.png": png(1, 1, 8, 2),
  "unsupported-portrait.gif": /GIF no admitido/,
  "unsupported-portrait.heic": /HEIC no admitido/,
  "unsupported-portrait.webp": /WebP no admitido/,
};

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof ImageHeaderError || error instanceof StampError || error instanceof FaceError) return error;
    throw error;
  }
}

describe("readImageHeader over the shared fixtures", () => {
  it("has an expectation for every fixture file", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const result = outcome(() => readImageHeader(read(name)));
    if (expected instanceof RegExp) {
      expect(result).toBeInstanceOf(ImageHeaderError);
      expect((result as Error).message).toMatch(expected);
    } else {
      expect(result).toEqual(expected);
    }
  });
});

// Stamp placement and face checks used to walk headers separately and disagree on some files.
describe("stamp and faces read the same header from the same file", () => {
  it.each(Object.keys(EXPECTED))("%s", async (name) => {
    const bytes = read(name);
    const header = outcome(() => readImageHeader(bytes));
    const stamp = outcome(() => readStampImage(bytes, name));
    const face = await decodeImage(bytes).catch((error: unknown) => outcome(() => { throw error; }));

    if (header instanceof ImageHeaderError && header.format === "WebP") {
      // a PDF cannot embed WebP, so the stamp refuses it; face checks decode it (lib/images/read-webp-header.ts)
      expect(stamp).toMatchObject({ code: "INVALID_IMAGE", message: expect.stringContaining(header.message) });
      expect(face).toMatchObject({ originalWidth: expect.any(Number) });
      return;
    }
    if (header instanceof ImageHeaderError) {
      // both refuse, with the same reason in their own words
      expect(stamp).toMatchObject({ code: "INVALID_IMAGE", message: expect.stringContaining(header.message) });
      expect(face).toMatchObject({ reason: "INVALID_IMAGE", message: expect.stringContaining(header.message) });
      return;
    }
    const { width, height } = displayedSize(header as ImageHeader);
    // the stamp refuses landscape pictures by their displayed size; faces accept them
    if (stamp instanceof StampError) expect([stamp.code, stamp.message]).toEqual(["IMAGE_NOT_PORTRAIT", expect.stringContaining(`${width}x${height}`)]);
    else expect(stamp).toMatchObject({ orientedWidth: width, orientedHeight: height, orientation: (header as ImageHeader).orientation });
    // faces refuse what would not fit in memory, by the same header's size
    if (face instanceof FaceError) expect([face.reason, face.message, width * height > 25e6]).toEqual(["INVALID_IMAGE", expect.stringContaining("megapíxeles"), true]);
    else expect(face).toMatchObject({ originalWidth: width, originalHeight: height });
  });
});

/** A JPEG with `app1` inserted right after SOI. */
function withApp1(base: Uint8Array, app1: Uint8Array): Uint8Array {
  const length = app1.length + 2;
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe1, length >> 8, length & 0xff, ...app1, ...base.subarray(2)]);
}

/** "Exif\0\0" + a TIFF header and an IFD0 holding one entry (tag, type, value). */
function exif(options: { little?: boolean; tag?: number; type?: number; value?: number; ifdOffset?: number; count?: number }): Uint8Array {
  const { little = false, tag = 0x0112, type = 3, value = 6, ifdOffset = 8, count = 1 } = options;
  const tiff = new DataView(new ArrayBuffer(8 + 2 + 12 + 4));
  tiff.setUint16(0, little ? 0x4949 : 0x4d4d);
  tiff.setUint16(2, 42, little);
  tiff.setUint32(4, ifdOffset, little);
  tiff.setUint16(8, count, little);
  tiff.setUint16(10, tag, little);
  tiff.setUint16(12, type, little);
  tiff.setUint32(14, 1, little);
  tiff.setUint16(18, value, little);
  return new Uint8Array([...new TextEncoder().encode("Exif\0\0"), ...new Uint8Array(tiff.buffer)]);
}

describe("EXIF orientation", () => {
  const base = read("portrait-413x531.jpg");
  const orientationOf = (bytes: Uint8Array) => readImageHeader(bytes).orientation;

  it.each<[string, Uint8Array, number]>([
    ["big-endian 6", exif({ value: 6 }), 6],
    ["little-endian 8", exif({ little: true, value: 8 }), 8],
    ["value out of range", exif({ value: 9 }), 1],
    ["tag stored as LONG, not SHORT", exif({ type: 4 }), 1],
    ["no orientation tag", exif({ tag: 0x010f }), 1],
    ["IFD offset past the segment", exif({ ifdOffset: 0xfffffff0 }), 1],
    ["65535 entries announced in a short IFD", exif({ tag: 0x010f, count: 0xffff }), 1],
    ["XMP, not EXIF", new TextEncoder().encode("http://ns.adobe.com/xap/1.0/\0<x/>"), 1],
  ])("%s → %i", (_name, app1, expected) => {
    expect(orientationOf(withApp1(base, app1))).toBe(expected);
  });

  it("keeps the first EXIF block's answer when an editor appended another", () => {
    expect(orientationOf(withApp1(withApp1(base, exif({ value: 1 })), exif({ value: 6 })))).toBe(6);
    expect(orientationOf(withApp1(withApp1(base, exif({ value: 8 })), exif({ value: 1 })))).toBe(1);
  });
});

describe("bounded walking: damaged input is refused, never read past its end", () => {
  const inputs = ["portrait-progressive.jpg", "portrait-cmyk.jpg", "landscape-stored-portrait-exif-orientation6.jpg", "portrait-alpha-413x531.png"];

  it.each(inputs)("every cut of %s is refused with an ImageHeaderError", (name) => {
    const bytes = read(name);
    const step = Math.max(1, Math.floor(bytes.length / 400));
    for (let cut = 0; cut < bytes.length - 1; cut += cut < 512 ? 1 : step) {
      expect(outcome(() => readImageHeader(bytes.subarray(0, cut)))).toBeInstanceOf(ImageHeaderError);
    }
  });

  it.each(inputs)("bytes flipped in the headers of %s give a header or an ImageHeaderError", (name) => {
    const bytes = read(name);
    let seed = 20;
    for (let i = 0; i < 300; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const copy = bytes.slice();
      copy[seed % 2048] ^= 1 + (seed % 255);
      const result = outcome(() => readImageHeader(copy));
      if (!(result instanceof ImageHeaderError)) expect(result).toHaveProperty("width");
    }
  });
});
