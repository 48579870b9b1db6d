import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { fixturePath } from "@/test/fixtures-dir";
import { declareWebpSize, encodeWebp } from "@/lib/faces/testing/encode-webp";
import { ImageHeaderError } from "./read-image-header";
import { readWebpHeader } from "./read-webp-header";

const decodeWebp = vi.hoisted(() => vi.fn());
vi.mock("./decode-webp", async (importOriginal) => {
  const original = await importOriginal<typeof import("./decode-webp")>();
  decodeWebp.mockImplementation(original.decodeWebp);
  return { decodeWebp };
});
const { decodeImage } = await import("@/lib/faces/decode-image");

const portrait = new Uint8Array(readFileSync(fixturePath("faces/calibration/p01/img5.jpg")));

describe("WebP photos", () => {
  it("reads the declared size of lossy and lossless WebP and decodes them to the same size", async () => {
    for (const lossless of [false, true]) {
      const webp = await encodeWebp(portrait, { lossless, maxSide: 300 });
      const header = readWebpHeader(webp);
      expect(header).toMatchObject({ format: "webp", lossless, orientation: 1 });
      const image = await decodeImage(webp);
      expect([image.originalWidth, image.originalHeight]).toEqual([header.width, header.height]);
      expect(Math.max(header.width, header.height)).toBe(300);
    }
  });

  it("refuses a bomb (a small file declaring 16384 × 16384) before the decoder runs", async () => {
    const webp = await encodeWebp(portrait, { lossless: true, maxSide: 64 });
    const bomb = declareWebpSize(webp, 16384, 16384);
    expect(readWebpHeader(bomb)).toMatchObject({ width: 16384, height: 16384 });
    decodeWebp.mockClear();
    await expect(decodeImage(bomb)).rejects.toMatchObject({ reason: "INVALID_IMAGE", message: expect.stringContaining("megapíxeles") });
    expect(decodeWebp).not.toHaveBeenCalled();
    // counter-test: the same file with its true size reaches the decoder
    await decodeImage(webp);
    expect(decodeWebp).toHaveBeenCalledTimes(1);
  });

  it("refuses truncated, garbled and animated files by their header", async () => {
    const webp = await encodeWebp(portrait, { maxSide: 64 });
    const animated = webp.slice();
    const vp8x = new Uint8Array([..."VP8X"].map((c) => c.charCodeAt(0)).concat([10, 0, 0, 0, 0x02, 0, 0, 0, 63, 0, 0, 63, 0, 0]));
    const withVp8x = new Uint8Array([...animated.subarray(0, 12), ...vp8x, ...animated.subarray(12)]);
    new DataView(withVp8x.buffer).setUint32(4, withVp8x.length - 8, true);
    const cases: [string, Uint8Array, RegExp][] = [
      ["truncated", webp.subarray(0, webp.length - 10), /truncado/],
      ["chunk longer than the file", (() => { const b = webp.slice(); new DataView(b.buffer).setUint32(16, 0xfffffff0, true); return b; })(), /más largo que el archivo/],
      ["animated", withVp8x, /animada/],
      ["not RIFF", new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "), /sin cabecera|truncado/],
    ];
    for (const [name, bytes, message] of cases) {
      let error: unknown;
      try {
        readWebpHeader(bytes);
      } catch (caught) {
        error = caught;
      }
      expect(error, name).toBeInstanceOf(ImageHeaderError);
      expect((error as Error).message, name).toMatch(message);
    }
  });
});
