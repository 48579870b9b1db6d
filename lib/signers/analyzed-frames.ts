import { analyzeFace, type FaceAnalysis } from "@/lib/faces/analyze-face";
import { FaceError } from "@/lib/faces/face-error";
import { keptFaceAnalysis } from "./kept-face-analyses";

/**
 * The analysis of one capture frame as the liveness check makes it (exactly one face), kept when
 * the page sent the frame as it was captured (facial/frame), so that the try's upload finds most of
 * its frames analysed. A frame without one usable face is a verdict on the frame and is kept too;
 * any other failure (the engine) is not.
 */
export function analyzedFrame(frame: Uint8Array, now = Date.now()): Promise<FaceAnalysis> {
  return keptFaceAnalysis(
    { purpose: "frame", picture: frame, now },
    (picture) => analyzeFace(picture, { multipleFaces: "reject" }),
    (error) => error instanceof FaceError,
  );
}

/** The face-pool task behind POST facial/frame: analyses and keeps the frame; says only whether it held one usable face. */
export async function analyzeFacialFrame(input: { frame: Uint8Array }): Promise<{ face: boolean }> {
  try {
    await analyzedFrame(input.frame);
    return { face: true };
  } catch (error) {
    // an undecodable picture is the client's fault, as in the try itself
    if (error instanceof FaceError && error.reason !== "INVALID_IMAGE") return { face: false };
    throw error;
  }
}
