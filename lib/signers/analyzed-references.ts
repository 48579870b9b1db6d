import { analyzeFace, type FaceAnalysis } from "@/lib/faces/analyze-face";
import { keptFaceAnalysis } from "./kept-face-analyses";

/**
 * The analysis of a registry photo (a reference: its dominant face), made when the capture started
 * (warm-facial-check.ts) and used by the try that follows. A photo that fails is not kept: the try
 * analyses it again.
 */
export function analyzedReference(photo: Uint8Array, now = Date.now()): Promise<FaceAnalysis> {
  return keptFaceAnalysis({ purpose: "reference", picture: photo, now }, (picture) => analyzeFace(picture, { multipleFaces: "largest" }), () => false);
}
