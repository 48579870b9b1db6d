import { deflateSync } from "node:zlib";
import { PNG } from "pngjs";
import type { PDFDocument, PDFRef } from "pdf-lib";
import { StampError } from "@/lib/stamp/errors";
import type { StampImage } from "@/lib/stamp/read-stamp-image";

// A stamp image is at most ~2.5 in tall at size 2; 1000 px is ~400 dpi there, more only bloats the PDF.
const MAX_PNG_SIDE = 1000;
const JPEG_COLOR_SPACES = { 1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK" } as const;

/**
 * Registers the image as an Image XObject in the scratch document. JPEGs are copied as DCTDecode
 * streams, untouched; PNGs are decoded (any bit depth, palette, alpha), downscaled and re-deflated.
 */
export function embedStampImage(document: PDFDocument, image: StampImage): PDFRef {
  return image.kind === "jpg" ? embedJpeg(document, image) : embedPng(document, image);
}

function embedJpeg(document: PDFDocument, image: StampImage): PDFRef {
  const components = image.components ?? 3;
  const stream = document.context.stream(image.bytes, {
    Type: "XObject",
    Subtype: "Image",
    Width: image.width,
    Height: image.height,
    BitsPerComponent: 8,
    ColorSpace: JPEG_COLOR_SPACES[components],
    Filter: "DCTDecode",
    // Adobe CMYK JPEGs hold inverted samples; without the inversion the photo prints as a negative.
    ...(components === 4 && image.adobe ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
  });
  return document.context.register(stream);
}

function embedPng(document: PDFDocument, image: StampImage): PDFRef {
  let decoded: { width: number; height: number; data: Uint8Array };
  try {
    // pngjs expands every bit depth and color type to 8-bit RGBA
    decoded = PNG.sync.read(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
  } catch (error) {
    throw new StampError("INVALID_IMAGE", `La imagen PNG no se puede decodificar (${(error as Error).message}).`);
  }
  const scaled = downscale(decoded, MAX_PNG_SIDE);
  const pixels = scaled.width * scaled.height;
  const rgb = new Uint8Array(pixels * 3);
  const alpha = new Uint8Array(pixels);
  let opaque = true;
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = scaled.data[i * 4];
    rgb[i * 3 + 1] = scaled.data[i * 4 + 1];
    rgb[i * 3 + 2] = scaled.data[i * 4 + 2];
    alpha[i] = scaled.data[i * 4 + 3];
    if (alpha[i] !== 255) opaque = false;
  }
  const context = document.context;
  const base = { Type: "XObject", Subtype: "Image", Width: scaled.width, Height: scaled.height, BitsPerComponent: 8, Filter: "FlateDecode" };
  const smask = opaque ? undefined : context.register(context.stream(deflateSync(alpha), { ...base, ColorSpace: "DeviceGray" }));
  return context.register(context.stream(deflateSync(rgb), { ...base, ColorSpace: "DeviceRGB", ...(smask ? { SMask: smask } : {}) }));
}

/** Box filter weighted by alpha, so transparent pixels do not darken the edges they border. */
function downscale(source: { width: number; height: number; data: Uint8Array }, maxSide: number) {
  const { width, height, data } = source;
  const factor = Math.max(width, height) / maxSide;
  if (factor <= 1) return source;
  const outW = Math.max(1, Math.round(width / factor));
  const outH = Math.max(1, Math.round(height / factor));
  const out = new Uint8Array(outW * outH * 4);
  const columnOf = new Uint32Array(width);
  for (let x = 0; x < width; x++) columnOf[x] = Math.min(outW - 1, Math.floor((x * outW) / width));
  const sums = new Float64Array(outW * 5); // premultiplied r, g, b, alpha, sample count

  let row = 0;
  const flush = () => {
    for (let ox = 0; ox < outW; ox++) {
      const [r, g, b, a, n] = sums.subarray(ox * 5, ox * 5 + 5);
      const o = (row * outW + ox) * 4;
      out[o] = a > 0 ? Math.round(r / a) : 255;
      out[o + 1] = a > 0 ? Math.round(g / a) : 255;
      out[o + 2] = a > 0 ? Math.round(b / a) : 255;
      out[o + 3] = n > 0 ? Math.round(a / n) : 0;
    }
    sums.fill(0);
  };
  for (let y = 0; y < height; y++) {
    const target = Math.min(outH - 1, Math.floor((y * outH) / height));
    if (target !== row) {
      flush();
      row = target;
    }
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const s = columnOf[x] * 5;
      const a = data[i + 3];
      sums[s] += data[i] * a;
      sums[s + 1] += data[i + 1] * a;
      sums[s + 2] += data[i + 2] * a;
      sums[s + 3] += a;
      sums[s + 4] += 1;
    }
  }
  flush();
  return { width: outW, height: outH, data: out };
}
