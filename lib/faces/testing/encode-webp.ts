import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { decodeImage } from "../decode-image";

type WebpEncodeModule = {
  default: (image: { data: Uint8ClampedArray; width: number; height: number }, options?: { lossless?: number; quality?: number }) => Promise<ArrayBuffer>;
  init: (module: WebAssembly.Module) => Promise<unknown>;
};

let encoder: Promise<WebpEncodeModule["default"]> | undefined;

/** Test photos in WebP, made from JPEG fixtures with libwebp's own encoder (the same package that decodes). */
export async function encodeWebp(photo: Uint8Array, options: { lossless?: boolean; maxSide?: number } = {}): Promise<Uint8Array> {
  encoder ??= loadEncoder();
  const encode = await encoder;
  const image = await decodeImage(photo, options.maxSide);
  const rgba = new Uint8ClampedArray(image.width * image.height * 4);
  for (let i = 0, j = 0; i < image.data.length; i += 3, j += 4) rgba.set([image.data[i], image.data[i + 1], image.data[i + 2], 255], j);
  return new Uint8Array(await encode({ data: rgba, width: image.width, height: image.height }, options.lossless ? { lossless: 1 } : { quality: 90 }));
}

async function loadEncoder(): Promise<WebpEncodeModule["default"]> {
  const requireFromApp = createRequire(path.join(process.cwd(), "package.json"));
  const encoderFile = requireFromApp.resolve("@jsquash/webp/encode.js");
  const webp = (await import(pathToFileURL(encoderFile).href)) as WebpEncodeModule;
  // Node has WASM SIMD, so the package picks its SIMD build: hand it that binary
  await webp.init(await WebAssembly.compile(await readFile(path.join(path.dirname(encoderFile), "codec", "enc", "webp_enc_simd.wasm"))));
  return webp.default;
}

/** Rewrites a lossless (VP8L) WebP's declared size, leaving the pixel data as it was: a decompression bomb's header. */
export function declareWebpSize(webp: Uint8Array, width: number, height: number): Uint8Array {
  const bomb = webp.slice();
  const at = findChunk(bomb, "VP8L") + 8;
  if (bomb[at] !== 0x2f) throw new Error("not a VP8L stream");
  const view = new DataView(bomb.buffer, bomb.byteOffset + at + 1, 4);
  const rest = view.getUint32(0, true) & ~0x0fffffff;
  view.setUint32(0, (rest | ((height - 1) << 14) | (width - 1)) >>> 0, true);
  return bomb;
}

function findChunk(bytes: Uint8Array, type: string): number {
  for (let pos = 12; pos + 8 <= bytes.length; ) {
    if (String.fromCharCode(...bytes.subarray(pos, pos + 4)) === type) return pos;
    const length = new DataView(bytes.buffer, bytes.byteOffset + pos + 4, 4).getUint32(0, true);
    pos += 8 + length + (length & 1);
  }
  throw new Error(`no ${type} chunk`);
}
