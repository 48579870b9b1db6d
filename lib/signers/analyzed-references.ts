import { analyzeFace, type FaceAnalysis } from "@/lib/faces/analyze-face";
import { keptFaceAnalysis } from "./kept-face-analyses";

/**
 * The analysis of a face reference (its dominant face): a registry photo, analysed when the capture
 * started (warm-facial-check.ts), or an ID card's portrait, analysed when the card was sent then
 * (checked-id-cards.ts); used by the try that follows. A photo that fails is not kept: the try
 * analyses it again.
 */
export function analyzedReference(photo: Uint8Array, now = Date.now()): Promise<FaceAnalysis> {
  return keptFaceAnalysis({ purpose: "reference", picture: photo, now }, (picture) => analyzeFace(picture, { multipleFaces: "largest" }), () => false);
}
