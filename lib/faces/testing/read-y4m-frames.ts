import jpeg from "jpeg-js";

/**
 * Test and benchmark support: turns a Y4M clip (the Chromium fake-camera format: a header line,
 * then "FRAME…\n" + I420 planes) into JPEG frames, as the browser would send them.
 * Only 4:2:0 clips are read; `pick` selects frame indexes (default: all).
 */
export function readY4mFrames(y4m: Uint8Array, pick?: number[], quality = 90): Uint8Array[] {
  const headerEnd = y4m.indexOf(0x0a);
  const header = new TextDecoder().decode(y4m.subarray(0, headerEnd));
  if (!header.startsWith("YUV4MPEG2 ")) throw new Error("not a Y4M stream");
  const width = Number(/ W(\d+)/.exec(header)?.[1]);
  const height = Number(/ H(\d+)/.exec(header)?.[1]);
  const colour = / C(\S+)/.exec(header)?.[1] ?? "420jpeg";
  if (!width || !height || !colour.startsWith("420")) throw new Error(`unsupported Y4M header: ${header}`);
  const planeBytes = width * height + 2 * (width / 2) * (height / 2);

  const frames: Uint8Array[] = [];
  let offset = headerEnd + 1;
  for (let index = 0; offset < y4m.length; index++) {
    const lineEnd = y4m.indexOf(0x0a, offset);
    if (lineEnd < 0 || lineEnd + 1 + planeBytes > y4m.length) break;
    const planes = y4m.subarray(lineEnd + 1, lineEnd + 1 + planeBytes);
    if (!pick || pick.includes(index)) frames.push(encodeI420(planes, width, height, quality));
    offset = lineEnd + 1 + planeBytes;
  }
  return frames;
}

/** BT.601 full-range YCbCr → RGB (what C420jpeg and webcam JPEGs use), then JPEG-encoded. */
function encodeI420(planes: Uint8Array, width: number, height: number, quality: number): Uint8Array {
  const uOffset = width * height;
  const vOffset = uOffset + (width / 2) * (height / 2);
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const luma = planes[y * width + x];
      const chroma = (y >> 1) * (width / 2) + (x >> 1);
      const cb = planes[uOffset + chroma] - 128;
      const cr = planes[vOffset + chroma] - 128;
      const o = (y * width + x) * 4;
      rgba[o] = clamp(luma + 1.402 * cr);
      rgba[o + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr);
      rgba[o + 2] = clamp(luma + 1.772 * cb);
      rgba[o + 3] = 255;
    }
  }
  return new Uint8Array(jpeg.encode({ data: rgba, width, height }, quality).data);
}

function clamp(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}
