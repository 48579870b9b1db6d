import jpeg from "jpeg-js";
import { analyzeFace } from "../analyze-face";
import { decodeImage } from "../decode-image";
import { loadFaceEngine } from "../load-face-engine";
import type { FaceMesh } from "../measure-head-motion";
import { renderRotatedFace } from "./rotate-face";
import { samplePixel } from "./sample-pixel";

/**
 * Test and benchmark support: camera frames made from ONE still photo, for liveness checks.
 *
 * No footage of a real person moving exists in the fixtures, so every clip here is made from a
 * photo. Two kinds are made:
 * - stand-ins for a live signer: a head turn and a look-up are the photo's face rotated in 3-D as a
 *   rigid head rotates (lib/faces/testing/rotate-face.ts: the face mesh with its depth, turned about
 *   the neck's axis), a smile widens the mouth, moving closer scales the picture; every frame has
 *   its own sensor noise;
 * - attacks, as someone holding or injecting a picture would: the still itself (slightly moved, as
 *   a hand-held print), the fake turn (the middle of the face warped sideways), the same with
 *   the whole picture shifted too, and a warp of the nose alone.
 * A stand-in is itself one photo animated, so whatever passes as a stand-in also passes as an attack
 * by someone with a 3-D face model: docs/faces.md says what that means.
 */
export const FRAME_WIDTH = 640;
export const FRAME_HEIGHT = 480;
const FRAME = { width: FRAME_WIDTH, height: FRAME_HEIGHT };
/** How far the stand-ins turn and look up: 25°, what a signer asked to "turn slowly" does at least. */
const TURN_RADIANS = (25 * Math.PI) / 180;
const LOOK_UP_RADIANS = (25 * Math.PI) / 180;

export type Box = { x: number; y: number; width: number; height: number };
export type Point = { x: number; y: number };

/** A 640×480 RGBA picture with the face where the mesh says it is (frame pixels). */
export interface FaceScene {
  rgba: Buffer;
  face: Box;
  landmarks: { nose: Point; leftEye: Box; rightEye: Box; mouth: Box };
  /** The face mesh of `rgba` (with depth) and its triangles, for 3-D movements. */
  mesh: FaceMesh;
  triangles: number[];
}

/** A 640×480 scene of the one face in `photo`, placed and meshed, ready for `frameOf`. */
export async function makeFaceScene(photo: Uint8Array): Promise<FaceScene> {
  const rgba = await sceneFromPhoto(photo, (await analyzeFace(photo, { multipleFaces: "largest" })).box);
  const placed = await analyzeFace(encodeFrame(rgba), { multipleFaces: "largest" });
  const { human } = await loadFaceEngine();
  return placeScene(rgba, placed.box, placed.mesh, human.faceTriangulation);
}

// MediaPipe face-mesh indexes used to place the simulated motions
const EYE_IMAGE_LEFT = [33, 133, 159, 145, 160, 144, 158, 153];
const EYE_IMAGE_RIGHT = [362, 263, 386, 374, 385, 380, 387, 373];
const MOUTH = [61, 291, 0, 17, 13, 14, 78, 308];
const NOSE_TIP = 1;

/** Crops `photo` to 640×480 around the face (`face` in photo pixels), the face about 42 % of the width. */
export async function sceneFromPhoto(photo: Uint8Array, face: Box): Promise<Buffer> {
  const image = await decodeImage(photo);
  const k = image.width / image.originalWidth;
  const cx = (face.x + face.width / 2) * k;
  const cy = (face.y + face.height / 2) * k;
  const scale = (face.width * k) / (0.42 * FRAME_WIDTH);
  const out = Buffer.alloc(FRAME_WIDTH * FRAME_HEIGHT * 4);
  const source = { data: image.data, width: image.width, height: image.height, channels: 3 as const };
  for (let y = 0; y < FRAME_HEIGHT; y++) {
    for (let x = 0; x < FRAME_WIDTH; x++) {
      const sx = cx + (x - FRAME_WIDTH / 2) * scale;
      const sy = cy + (y - FRAME_HEIGHT * 0.46) * scale;
      samplePixel(source, sx, sy, out, (y * FRAME_WIDTH + x) * 4);
    }
  }
  return out;
}

/** Where the simulated motions act, from the face mesh of the scene's first frame. */
export function placeScene(rgba: Buffer, box: Box, mesh: FaceMesh, triangles: number[]): FaceScene {
  const boxOf = (indexes: number[]): Box => {
    const xs = indexes.map((i) => mesh[i][0]);
    const ys = indexes.map((i) => mesh[i][1]);
    return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
  };
  return { rgba, face: box, landmarks: { nose: { x: mesh[NOSE_TIP][0], y: mesh[NOSE_TIP][1] }, leftEye: boxOf(EYE_IMAGE_LEFT), rightEye: boxOf(EYE_IMAGE_RIGHT), mouth: boxOf(MOUTH) }, mesh, triangles };
}

export type Motion =
  | "still"
  | "warped-turn-left"
  | "warped-turn-right"
  | "shifted-warped-turn-left"
  | "shifted-warped-turn-right"
  | "nose-warped-turn-left"
  | "nose-warped-turn-right"
  | "turn-left"
  | "turn-right"
  | "look-up"
  | "blink"
  | "smile"
  | "move-closer";

/**
 * The picture at `progress` (0 = start pose, 1 = full movement) of `motion`. Attacks ("still",
 * "warped-turn-*") add no sensor noise unless `noise` is given (an injected picture has none).
 */
export function frameOf(scene: FaceScene, motion: Motion, progress: number, options: { noise?: number; seed?: number } = {}): Buffer {
  const { face, landmarks } = scene;
  let rgba: Buffer;
  switch (motion) {
    case "still":
      // a hand-held print: a pixel or two of drift, a little scale
      rgba = transform(scene.rgba, { dx: 2 * Math.sin(progress * 3), dy: progress, scale: 1 + 0.01 * progress, angle: 0 });
      break;
    case "warped-turn-left":
    case "warped-turn-right": {
      // the fake: the middle of the face slides sideways, its outline stays put
      const sign = motion === "warped-turn-left" ? 1 : -1;
      rgba = slideInside(scene.rgba, face, sign * (-0.1 + 0.3 * progress) * face.width, 0, { rx: face.width / 2, ry: face.height * 0.65 });
      break;
    }
    case "shifted-warped-turn-left":
    case "shifted-warped-turn-right": {
      // the fake done thoroughly: the whole picture shifted as the head would move, the middle warped further
      const sign = motion === "shifted-warped-turn-left" ? 1 : -1;
      const moved = transform(scene.rgba, { dx: sign * 0.12 * progress * face.width, dy: 0, scale: 1, angle: 0 });
      rgba = slideInside(moved, shifted(face, sign * 0.12 * progress * face.width, 0), sign * 0.2 * progress * face.width, 0, { rx: face.width / 2, ry: face.height * 0.6 });
      break;
    }
    case "nose-warped-turn-left":
    case "nose-warped-turn-right": {
      // a local edit: the nose and the middle of the face slide, the cheeks and outline stay
      const sign = motion === "nose-warped-turn-left" ? 1 : -1;
      rgba = slideInside(scene.rgba, { x: landmarks.nose.x - face.width * 0.2, y: landmarks.nose.y - face.width * 0.25, width: face.width * 0.4, height: face.width * 0.5 }, sign * 0.2 * progress * face.width, 0, { rx: face.width * 0.28, ry: face.width * 0.35 });
      break;
    }
    case "turn-left":
    case "turn-right":
      // a rigid head turn of 25° about the neck (the signer's own left: the nose towards image right, unmirrored)
      rgba = progress === 0 ? scene.rgba : renderRotatedFace(scene.rgba, FRAME, scene.mesh, scene.triangles, { yaw: (motion === "turn-left" ? 1 : -1) * TURN_RADIANS * progress, pitch: 0 });
      break;
    case "look-up":
      rgba = progress === 0 ? scene.rgba : renderRotatedFace(scene.rgba, FRAME, scene.mesh, scene.triangles, { yaw: 0, pitch: LOOK_UP_RADIANS * progress });
      break;
    case "blink":
      rgba = closeEyes(scene.rgba, [landmarks.leftEye, landmarks.rightEye], Math.min(1, progress * 1.5));
      break;
    case "smile":
      rgba = widenMouth(scene.rgba, landmarks.mouth, progress);
      break;
    case "move-closer":
      rgba = transform(scene.rgba, { dx: 0, dy: 0, scale: 1 + 0.3 * progress, angle: 0, centre: { x: face.x + face.width / 2, y: face.y + face.height / 2 } });
      break;
  }
  const live = !motion.includes("warped") && motion !== "still";
  const sigma = options.noise ?? (live ? 3 : 0);
  return sigma > 0 ? addNoise(rgba, sigma, options.seed ?? Math.round(progress * 1000) + motion.length) : rgba;
}

export function encodeFrame(rgba: Buffer, quality = 85): Uint8Array {
  return new Uint8Array(jpeg.encode({ data: rgba, width: FRAME_WIDTH, height: FRAME_HEIGHT }, quality).data);
}

function shifted(box: Box, dx: number, dy: number): Box {
  return { ...box, x: box.x + dx, y: box.y + dy };
}

/** Moves the content inside an ellipse around `region`'s centre by (dx, dy), fading (cos²) to nothing at its edge. */
function slideInside(rgba: Buffer, region: Box, dx: number, dy: number, shape: { rx: number; ry: number }): Buffer {
  const out = Buffer.from(rgba);
  const source = { data: rgba, ...FRAME, channels: 4 as const };
  const cx = region.x + region.width / 2;
  const cy = region.y + region.height / 2;
  for (let y = 0; y < FRAME_HEIGHT; y++) {
    for (let x = 0; x < FRAME_WIDTH; x++) {
      const u = (x - cx) / shape.rx;
      const v = (y - cy) / shape.ry;
      if (Math.abs(u) >= 1 || Math.abs(v) >= 1) continue;
      const g = Math.cos((Math.PI / 2) * u) ** 2 * Math.cos((Math.PI / 2) * v) ** 2;
      if (g <= 0) continue;
      samplePixel(source, x - dx * g, y - dy * g, out, (y * FRAME_WIDTH + x) * 4);
    }
  }
  return out;
}

/** Upper eyelid drawn down over each eye: every eye pixel takes the skin above it, progressively. */
function closeEyes(rgba: Buffer, eyes: Box[], amount: number): Buffer {
  const out = Buffer.from(rgba);
  const source = { data: rgba, ...FRAME, channels: 4 as const };
  for (const eye of eyes) {
    const cx = eye.x + eye.width / 2;
    const cy = eye.y + eye.height / 2;
    const rx = eye.width * 0.75;
    const ry = Math.max(eye.height, eye.width * 0.3) * 1.3;
    for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
      for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
        const u = (x - cx) / rx;
        const v = (y - cy) / ry;
        if (u * u + v * v >= 1 || x < 0 || y < 0 || x >= FRAME_WIDTH || y >= FRAME_HEIGHT) continue;
        const g = amount * (1 - (u * u + v * v)) ** 0.5;
        samplePixel(source, x, y - g * ry * 1.4, out, (y * FRAME_WIDTH + x) * 4);
      }
    }
  }
  return out;
}

/** Mouth corners pulled outwards and up, as in a smile. */
function widenMouth(rgba: Buffer, mouth: Box, amount: number): Buffer {
  const out = Buffer.from(rgba);
  const source = { data: rgba, ...FRAME, channels: 4 as const };
  const cx = mouth.x + mouth.width / 2;
  const cy = mouth.y + mouth.height / 2;
  const rx = mouth.width * 1.1;
  const ry = Math.max(mouth.height, mouth.width * 0.35) * 1.4;
  const stretch = 1 + 0.6 * amount;
  for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
    for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
      const u = (x - cx) / rx;
      const v = (y - cy) / ry;
      if (u * u + v * v >= 1 || x < 0 || y < 0 || x >= FRAME_WIDTH || y >= FRAME_HEIGHT) continue;
      const g = (1 - (u * u + v * v)) ** 1.5;
      const sx = cx + (x - cx) / (1 + (stretch - 1) * g);
      const sy = y + amount * g * Math.abs(u) * mouth.width * 0.12;
      samplePixel(source, sx, sy, out, (y * FRAME_WIDTH + x) * 4);
    }
  }
  return out;
}

/** Whole picture moved, scaled (about `centre`) and rotated: a print or phone held in front of the camera. */
function transform(rgba: Buffer, t: { dx: number; dy: number; scale: number; angle: number; centre?: Point }): Buffer {
  const out = Buffer.alloc(rgba.length);
  const source = { data: rgba, ...FRAME, channels: 4 as const };
  const c = t.centre ?? { x: FRAME_WIDTH / 2, y: FRAME_HEIGHT / 2 };
  const cos = Math.cos(-t.angle) / t.scale;
  const sin = Math.sin(-t.angle) / t.scale;
  for (let y = 0; y < FRAME_HEIGHT; y++) {
    for (let x = 0; x < FRAME_WIDTH; x++) {
      const px = x - c.x - t.dx;
      const py = y - c.y - t.dy;
      samplePixel(source, c.x + px * cos - py * sin, c.y + px * sin + py * cos, out, (y * FRAME_WIDTH + x) * 4);
    }
  }
  return out;
}

/** Gaussian sensor noise, deterministic per seed. */
function addNoise(rgba: Buffer, sigma: number, seed: number): Buffer {
  const out = Buffer.from(rgba);
  let state = (seed * 2654435761) >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  for (let i = 0; i < out.length; i += 4) {
    const n = sigma * Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(out[i + c] + n)));
  }
  return out;
}
