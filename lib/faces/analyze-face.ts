import type { FaceResult } from "@vladmandic/human";
import { decodeImage, type DecodedImage } from "./decode-image";
import { FaceError } from "./face-error";
import { loadFaceEngine } from "./load-face-engine";
import { measureFaceQuality, type FaceQuality } from "./measure-face-quality";

/** Face box in pixels of the upright uploaded image (EXIF orientation applied, before downscaling). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Head pose in radians, as estimated from the face mesh. */
export interface FacePose {
  yaw: number;
  pitch: number;
  roll: number;
}

/** What one image says about the single face it must show. */
export interface FaceAnalysis {
  /** Faces detected in the image (more than 1 only when `multipleFaces: "largest"` was allowed). */
  faces: number;
  box: FaceBox;
  /** Detector confidence for the chosen face, 0–1. */
  score: number;
  /** 1024-value face descriptor (Human `faceres`), compared by matchFaces. */
  embedding: number[];
  /** Human antispoof model, 0–1: high means a real face rather than a print or screen. */
  antispoof?: number;
  /** Human liveness model, 0–1: high means a live face. */
  liveness?: number;
  pose?: FacePose;
  quality: FaceQuality;
  /** 468 face-mesh points [x, y, z] in the same pixels as `box` (z: depth, smaller is nearer the camera; used for motion checks). */
  mesh: [number, number, number][];
  image: { width: number; height: number; analysedWidth: number; analysedHeight: number };
}

export interface AnalyzeFaceOptions {
  /**
   * "reject" (default, for selfies): a second face is an error. "largest": use the largest face
   * when it is clearly dominant, for ID documents that also print a small "ghost" portrait.
   */
  multipleFaces?: "reject" | "largest";
}

/** Below this the embedding is unreliable: the 224 px crop would be upscaled more than 3.5×. */
export const MIN_FACE_PX = 64;
/** With "largest", the chosen face must be at least this many times the area of the next one. */
const DOMINANT_AREA_RATIO = 2;

/**
 * Finds exactly one face in a JPEG/PNG and returns its box, descriptor, antispoof/liveness scores
 * and quality hints. Throws FaceError INVALID_IMAGE, NO_FACE, MULTIPLE_FACES or FACE_TOO_SMALL.
 */
export async function analyzeFace(imageBytes: Uint8Array, options: AnalyzeFaceOptions = {}): Promise<FaceAnalysis> {
  const image = await decodeImage(imageBytes);
  const engine = await loadFaceEngine();
  const result = await engine.detect(image);
  const face = pickFace(result.face, options.multipleFaces ?? "reject");
  return describeFace(image, face, result.face.length);
}

function pickFace(faces: FaceResult[], multipleFaces: "reject" | "largest"): FaceResult {
  const usable = faces.filter((face) => face.embedding && face.embedding.length > 0);
  if (usable.length === 0) throw new FaceError("NO_FACE");
  const bySize = [...usable].sort((a, b) => area(b) - area(a));
  if (bySize.length > 1) {
    if (multipleFaces === "reject") throw new FaceError("MULTIPLE_FACES", `${bySize.length} rostros`);
    if (area(bySize[0]) < DOMINANT_AREA_RATIO * area(bySize[1])) throw new FaceError("MULTIPLE_FACES", "ningún rostro predomina");
  }
  if (Math.min(bySize[0].box[2], bySize[0].box[3]) < MIN_FACE_PX) throw new FaceError("FACE_TOO_SMALL");
  return bySize[0];
}

function area(face: FaceResult): number {
  return face.box[2] * face.box[3];
}

function describeFace(image: DecodedImage, face: FaceResult, faces: number): FaceAnalysis {
  // boxes come in analysed pixels; callers think in pixels of the image they uploaded
  const scale = image.originalWidth / image.width;
  const [x, y, width, height] = face.box;
  const angle = face.rotation?.angle;
  return {
    faces,
    box: { x: Math.round(x * scale), y: Math.round(y * scale), width: Math.round(width * scale), height: Math.round(height * scale) },
    score: face.boxScore,
    embedding: face.embedding ?? [],
    antispoof: face.real,
    liveness: face.live,
    pose: angle ? { yaw: angle.yaw, pitch: angle.pitch, roll: angle.roll } : undefined,
    quality: measureFaceQuality(image, face.box),
    // Human leaves z in units of the mesh model's input crop; meshRaw z is a share of that crop, whose side is the box
    mesh: face.mesh.map(([px, py], i) => [px * scale, py * scale, (face.meshRaw[i]?.[2] ?? 0) * width * scale]),
    image: { width: image.originalWidth, height: image.originalHeight, analysedWidth: image.width, analysedHeight: image.height },
  };
}
