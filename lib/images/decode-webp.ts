import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { processSingletonLoad } from "@/lib/process-wide/singleton";

/** RGBA pixels as libwebp returns them. */
export interface WebpPixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

type WebpDecodeModule = { default: (buffer: ArrayBuffer) => Promise<WebpPixels>; init: (module: WebAssembly.Module) => Promise<void> };

/**
 * Decodes WebP with libwebp compiled to WebAssembly (@jsquash/webp): no native build. The caller must
 * have read the header and checked its size first (readWebpHeader): the decoder allocates whatever
 * the file declares. The module and its .wasm are read from node_modules once per process.
 */
export async function decodeWebp(bytes: Uint8Array): Promise<WebpPixels> {
  const decode = await processSingletonLoad("firmaviva.images.webp-decoder", loadDecoder);
  // the decoder takes an ArrayBuffer of exactly the file
  const copy = bytes.slice().buffer;
  return decode(copy);
}

async function loadDecoder(): Promise<(buffer: ArrayBuffer) => Promise<WebpPixels>> {
  // resolved at run time from the app root so bundlers leave the package and its .wasm alone
  const requireFromApp = createRequire(path.join(process.cwd(), "package.json"));
  const decoderFile = requireFromApp.resolve("@jsquash/webp/decode.js");
  const wasmFile = path.join(path.dirname(decoderFile), "codec", "dec", "webp_dec.wasm");
  const webp = (await import(/* webpackIgnore: true */ pathToFileURL(decoderFile).href)) as WebpDecodeModule;
  await webp.init(await WebAssembly.compile(await readFile(wasmFile)));
  return webp.default;
}
