import type { DecodedImage } from "./decode-image";

/** Brightness and sharpness of the face region, measured on the decoded pixels (no model involved). */
export interface FaceQuality {
  /** Shorter side of the face box in analysed pixels (after downscaling to the analysis size). */
  faceSidePx: number;
  /** Mean luma of the face box, 0–255. */
  brightness: number;
  /** Variance of the Laplacian of the face resampled to 128×128: low means blurred. */
  sharpness: number;
  tooSmall: boolean;
  tooDark: boolean;
  tooBright: boolean;
  blurry: boolean;
}

/** The embedding model looks at a 224 px crop: below ~112 px the face is upscaled and loses detail. */
export const SMALL_FACE_PX = 112;
const DARK_LUMA = 60;
const BRIGHT_LUMA = 215;
/** Set well below the sharpest and above visibly blurred crops of the fixtures (docs/faces.md). */
const BLURRY_LAPLACIAN_VARIANCE = 40;
const PATCH = 128;

/** Hints for the signer ("more light", "hold still"); they never decide a match on their own. */
export function measureFaceQuality(image: DecodedImage, box: [number, number, number, number]): FaceQuality {
  const [bx, by, bw, bh] = clampBox(image, box);
  const patch = grayPatch(image, bx, by, bw, bh);
  let sum = 0;
  for (const value of patch) sum += value;
  const brightness = sum / patch.length;
  const sharpness = laplacianVariance(patch);
  const faceSidePx = Math.min(bw, bh);
  return {
    faceSidePx,
    brightness: Math.round(brightness),
    sharpness: Math.round(sharpness),
    tooSmall: faceSidePx < SMALL_FACE_PX,
    tooDark: brightness < DARK_LUMA,
    tooBright: brightness > BRIGHT_LUMA,
    blurry: sharpness < BLURRY_LAPLACIAN_VARIANCE,
  };
}

function clampBox(image: DecodedImage, [x, y, w, h]: [number, number, number, number]): [number, number, number, number] {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(image.width, Math.ceil(x + w));
  const y1 = Math.min(image.height, Math.ceil(y + h));
  return [x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0)];
}

/** Nearest-neighbour resample to a fixed patch so sharpness does not depend on face size. */
function grayPatch(image: DecodedImage, x: number, y: number, w: number, h: number): Float32Array {
  const patch = new Float32Array(PATCH * PATCH);
  for (let py = 0; py < PATCH; py++) {
    const sy = Math.min(image.height - 1, y + Math.floor(((py + 0.5) * h) / PATCH));
    for (let px = 0; px < PATCH; px++) {
      const sx = Math.min(image.width - 1, x + Math.floor(((px + 0.5) * w) / PATCH));
      const i = (sy * image.width + sx) * 3;
      patch[py * PATCH + px] = 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2];
    }
  }
  return patch;
}

function laplacianVariance(patch: Float32Array): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < PATCH - 1; y++) {
    for (let x = 1; x < PATCH - 1; x++) {
      const i = y * PATCH + x;
      const value = patch[i - 1] + patch[i + 1] + patch[i - PATCH] + patch[i + PATCH] - 4 * patch[i];
      sum += value;
      sumSq += value * value;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}
