/** Pixels of a packed RGB (3 channels) or RGBA (4 channels) picture. */
export interface Picture {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** Bilinear sample of `src` at (sx, sy), clamped to its edges, written as an opaque RGBA pixel at byte `at` of `out`. */
export function samplePixel(src: Picture, sx: number, sy: number, out: Buffer, at: number): void {
  const x = Math.max(0, Math.min(src.width - 1.001, sx));
  const y = Math.max(0, Math.min(src.height - 1.001, sy));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  for (let c = 0; c < 3; c++) {
    const p = (yy: number, xx: number) => src.data[(yy * src.width + xx) * src.channels + c];
    out[at + c] = Math.round(p(y0, x0) * (1 - fx) * (1 - fy) + p(y0, x0 + 1) * fx * (1 - fy) + p(y0 + 1, x0) * (1 - fx) * fy + p(y0 + 1, x0 + 1) * fx * fy);
  }
  out[at + 3] = 255;
}
