import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { StampError } from "@/lib/stamp/errors";
import { readStampImage } from "@/lib/stamp/read-stamp-image";
import { fixturePath } from "@/test/fixtures-dir";

const FIXTURES = fixturePath("images");

type Expected =
  | { kind: "jpg" | "png"; stored: [number, number]; displayed: [number, number] }
  | { error: "INVALID_IMAGE" | "IMAGE_NOT_PORTRAIT"; message?: RegExp };

const ok = (kind: "jpg" | "png", w: number, h: number, displayed: [number, number] = [w, h]): Expected => ({
  kind,
  stored: [w, h],
  displayed,
});

// Every file of the fixture folder must appear here, so a new fixture cannot go untested.
const EXPECTED: Record<string, Expected> = {
  "almost-square-landscape-601x600.jpg": { error: "IMAGE_NOT_PORTRAIT", message: /601x600/ },
  "almost-square-portrait-600x601.jpg": ok("jpg", 600, 601),
  "corrupt-truncated.jpg": { error: "INVALID_IMAGE", message: /truncado/ },
  "corrupt-zero-size-garbled.jpg": { error: "INVALID_IMAGE", message: /0 píxeles/ },
  "jpeg-content-with-png-extension.png": ok("jpg", 413, 531),
  "landscape-910x600.jpg": { error: "IMAGE_NOT_PORTRAIT" },
  "landscape-stored-portrait-exif-orientation6.jpg": { error: "IMAGE_NOT_PORTRAIT", message: /910x600/ },
  "large-6000x8000.jpg": ok("jpg", 6000, 8000),
  "make.sh": { error: "INVALID_IMAGE", message: /no admitido/ },
  "portrait-16bit-240x320.png": ok("png", 240, 320),
  "portrait-413x531.jpg": ok("jpg", 413, 531),
  "portrait-alpha-413x531.png": ok("png", 413, 531),
  "portrait-cmyk.jpg": ok("jpg", 413, 531),
  "portrait-progressive.jpg": ok("jpg", 413, 531),
  "portrait-stored-landscape-exif-orientation6.jpg": ok("jpg", 531, 413, [413, 531]),
  "square-600x600.png": ok("png", 600, 600),
  "tiny-1x1.jpg": ok("jpg", 1, 1),
  "tiny-1x1.png": ok("png", 1, 1),
  "unsupported-portrait.gif": { error: "INVALID_IMAGE", message: /GIF/ },
  "unsupported-portrait.heic": { error: "INVALID_IMAGE", message: /HEIC/ },
  "unsupported-portrait.webp": { error: "INVALID_IMAGE", message: /WebP/ },
};

function stampErrorOf(run: () => unknown): StampError {
  try {
    run();
  } catch (error) {
    if (error instanceof StampError) return error;
    throw error;
  }
  throw new Error("expected a StampError");
}

describe("readStampImage over the shared fixtures", () => {
  it("has an expectation for every fixture file", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const bytes = readFileSync(path.join(FIXTURES, name));
    if ("error" in expected) {
      const error = stampErrorOf(() => readStampImage(bytes, name));
      expect(error.code).toBe(expected.error);
      expect(error.name).toBe("StampError");
      if (expected.message) expect(error.message).toMatch(expected.message);
      return;
    }
    const image = readStampImage(bytes, name);
    expect(image.kind).toBe(expected.kind);
    expect([image.width, image.height]).toEqual(expected.stored);
    expect([image.orientedWidth, image.orientedHeight]).toEqual(expected.displayed);
    expect(Array.from(image.bytes.subarray(0, 16))).toEqual(Array.from(bytes.subarray(0, 16)));
    // a private copy: pdf-lib style readers use bytes.buffer from offset 0
    expect(image.bytes.byteOffset).toBe(0);
    expect(image.bytes.buffer).not.toBe(bytes.buffer);
  });
});

function pngChunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

function pngWithHeader(width: number, height: number, bitDepth = 8, colorType = 2): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk("IEND", new Uint8Array()),
  ]);
}

describe("readStampImage refusals built in memory", () => {
  const portrait = readFileSync(path.join(FIXTURES, "portrait-alpha-413x531.png"));
  const jpeg = readFileSync(path.join(FIXTURES, "portrait-413x531.jpg"));
  const flipped = Buffer.from(portrait);
  flipped[flipped.length >> 1] ^= 0xff;

  it.each<[string, Uint8Array, string, RegExp]>([
    ["empty file", new Uint8Array(), "INVALID_IMAGE", /vacío/],
    ["a PDF", Buffer.from("%PDF-1.7\n"), "INVALID_IMAGE", /PDF no admitido/],
    ["PNG with a flipped byte", flipped, "INVALID_IMAGE", /CRC/],
    ["PNG cut in half", portrait.subarray(0, portrait.length >> 1), "INVALID_IMAGE", /truncado/],
    ["PNG of zero width", pngWithHeader(0, 10), "INVALID_IMAGE", /0 píxeles/],
    ["PNG with an impossible depth", pngWithHeader(10, 10, 16, 3), "INVALID_IMAGE", /tipo de color/],
    ["PNG over the decode limit", pngWithHeader(5000, 6000), "INVALID_IMAGE", /megapíxeles/],
    ["landscape PNG", pngWithHeader(20, 10), "IMAGE_NOT_PORTRAIT", /20x10/],
    ["JPEG without EOI", jpeg.subarray(0, jpeg.length - 2), "INVALID_IMAGE", /truncado/],
    ["JPEG header only", jpeg.subarray(0, 200), "INVALID_IMAGE", /JPEG/],
  ])("%s", (_name, bytes, code, message) => {
    const error = stampErrorOf(() => readStampImage(bytes));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it("names the file in the message when the caller passes it", () => {
    expect(stampErrorOf(() => readStampImage(new Uint8Array(), "firma.png")).message).toContain('"firma.png"');
  });
});
