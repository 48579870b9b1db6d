import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeFace } from "./analyze-face";
import { FaceError, type FaceErrorReason } from "./face-error";
import { loadFaceEngine } from "./load-face-engine";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
const IMAGES = fixturePath("images");
const read = (file: string) => new Uint8Array(fs.readFileSync(file));

async function reasonOf(promise: Promise<unknown>): Promise<FaceErrorReason | "resolved"> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    if (error instanceof FaceError) return error.reason;
    throw error;
  }
}

beforeAll(async () => {
  // one model load for the whole file; later calls hit the globalThis cache
  await loadFaceEngine();
});

describe("loadFaceEngine", () => {
  it("shares one engine between concurrent first calls and restores fetch and crash handlers", async () => {
    const [a, b] = await Promise.all([loadFaceEngine(), loadFaceEngine()]);
    expect(a).toBe(b);
    expect(a.human.tf.getBackend()).toBe("wasm");
    expect(String(globalThis.fetch)).not.toContain("fileURLToPath");
    expect(process.listeners("unhandledRejection").some((listener) => String(listener).includes("throw reason"))).toBe(false);
  });
});

describe("analyzeFace", () => {
  it("describes a single face: box, embedding, model scores and quality", async () => {
    const analysis = await analyzeFace(read(`${FACES}/person-a-obama/a1-id-portrait-413x531.jpg`));
    expect(analysis.faces).toBe(1);
    expect(analysis.score).toBeGreaterThan(0.5);
    expect(analysis.embedding).toHaveLength(1024);
    expect(analysis.antispoof).toBeGreaterThan(0);
    expect(analysis.liveness).toBeGreaterThan(0);
    expect(analysis.box.width).toBeGreaterThan(150);
    expect(analysis.quality).toMatchObject({ tooSmall: false, tooDark: false, blurry: false });
  });

  it("applies EXIF orientation: a portrait stored sideways is found upright", async () => {
    const analysis = await analyzeFace(read(`${IMAGES}/portrait-stored-landscape-exif-orientation6.jpg`));
    expect(analysis.image).toMatchObject({ width: 413, height: 531 });
    expect(Math.abs(analysis.pose?.roll ?? 1)).toBeLessThan(0.2);
  });

  it.each([
    ["no face", "NO_FACE", `${FACES}/no-face/no-face-chandelier-480x640.jpg`, {}],
    ["two people in a selfie", "MULTIPLE_FACES", `${FACES}/group/two-people-obama-biden.jpg`, {}],
    ["four people in a selfie", "MULTIPLE_FACES", `${FACES}/group/vladmandic-sample6-four-women.jpg`, {}],
    ["two equal faces, even when the largest may be used", "MULTIPLE_FACES", `${FACES}/group/two-people-obama-biden.jpg`, { multipleFaces: "largest" }],
    ["truncated JPEG", "INVALID_IMAGE", `${IMAGES}/corrupt-truncated.jpg`, {}],
    ["JPEG with a 0×0 frame and garbage", "INVALID_IMAGE", `${IMAGES}/corrupt-zero-size-garbled.jpg`, {}],
    ["GIF", "INVALID_IMAGE", `${IMAGES}/unsupported-portrait.gif`, {}],
    ["HEIC", "INVALID_IMAGE", `${IMAGES}/unsupported-portrait.heic`, {}],
    ["48 MP JPEG (refused before decoding)", "INVALID_IMAGE", `${IMAGES}/large-6000x8000.jpg`, {}],
    ["1×1 PNG", "NO_FACE", `${IMAGES}/tiny-1x1.png`, {}],
  ] as const)("%s → %s", async (_name, reason, file, options) => {
    expect(await reasonOf(analyzeFace(read(file), options))).toBe(reason);
  });

  it("refuses bytes that are no image at all", async () => {
    expect(await reasonOf(analyzeFace(new TextEncoder().encode("not an image")))).toBe("INVALID_IMAGE");
  });

  it("refuses a face too small to compare", async () => {
    const canvas = await compose(320, [{ scale: 110, x: 20, y: 20 }]);
    expect(await reasonOf(analyzeFace(canvas))).toBe("FACE_TOO_SMALL");
  });

  it("uses the dominant face of an ID document with a small ghost portrait only when allowed", async () => {
    const card = await compose(900, [{ scale: 531, x: 20, y: 20 }, { scale: 220, x: 600, y: 300 }]);
    expect(await reasonOf(analyzeFace(card))).toBe("MULTIPLE_FACES");
    const analysis = await analyzeFace(card, { multipleFaces: "largest" });
    expect(analysis.faces).toBe(2);
    expect(analysis.box.x).toBeLessThan(300);
  });

  it("reads PNG with alpha and JPEG bytes under a .png name", async () => {
    expect((await analyzeFace(read(`${IMAGES}/portrait-alpha-413x531.png`))).faces).toBe(1);
    expect((await analyzeFace(read(`${IMAGES}/jpeg-content-with-png-extension.png`))).faces).toBe(1);
  });
});

/** White square PNG with copies of the person-A ID portrait, each downscaled to `scale` px high. */
async function compose(side: number, copies: { scale: number; x: number; y: number }[]): Promise<Uint8Array> {
  const { PNG } = await import("pngjs");
  const { decodeImage } = await import("./decode-image");
  const canvas = new PNG({ width: side, height: side });
  canvas.data.fill(255);
  for (const copy of copies) {
    const portrait = await decodeImage(read(`${FACES}/person-a-obama/a1-id-portrait-413x531.jpg`), copy.scale);
    for (let y = 0; y < portrait.height; y++) {
      for (let x = 0; x < portrait.width; x++) {
        const s = (y * portrait.width + x) * 3;
        canvas.data.set([portrait.data[s], portrait.data[s + 1], portrait.data[s + 2], 255], ((y + copy.y) * side + x + copy.x) * 4);
      }
    }
  }
  return new Uint8Array(PNG.sync.write(canvas));
}
