import { AppError } from "@/lib/errors";
import { analyzeFace, type FaceAnalysis } from "./analyze-face";
import { cosineSimilarity } from "./cosine-similarity";
import { FaceError } from "./face-error";
import { DEFAULT_FACE_MATCH_THRESHOLD } from "./match-faces";
import { measureHeadMotion, type HeadMotion } from "./measure-head-motion";

/** What the signer page asked the signer to do while it captured the frames. */
export const LIVENESS_CHALLENGES = ["turn-left", "turn-right", "move-closer"] as const;
export type LivenessChallenge = (typeof LIVENESS_CHALLENGES)[number];

export interface LivenessAssessment {
  live: boolean;
  /** Stable codes for every failed check, empty when `live`. */
  reasons: string[];
  scores: {
    /** Median of Human's antispoof score over the frames, 0–1. */
    antispoof: number;
    /** Median of Human's liveness score over the frames, 0–1. */
    liveness: number;
    /** Share of the required movement that was seen, 0–1 (1 = enough). */
    motion: number;
  };
  motion: HeadMotion;
}

/**
 * Thresholds, set from the fixtures (docs/faces.md). The model scores are weak on their own (a
 * digital photo of a real face scores as live), so the decisive check is movement.
 */
export const LIVENESS_THRESHOLDS = {
  minFrames: 3,
  maxFrames: 8,
  antispoof: 0.3,
  liveness: 0.5,
  /** Nose-offset change for a turn challenge, ≈ 12° of head yaw (the fixture clip jitters ±0.01). */
  turn: 0.25,
  /** Face 15 % wider for "move-closer" (the fixture zoom reaches 2 %). */
  scale: 1.15,
  /** Without a challenge: non-rigid change 2× the fixture clip's jitter (0.013), or a small turn. */
  nonRigid: 0.025,
  freeTurn: 0.08,
} as const;

/**
 * Decides whether 3–8 frames captured over ~2 s show a live person: Human's antispoof and liveness
 * scores, one and the same face in every frame, and head movement in the requested direction, so
 * identical frames or a picture slid or zoomed in front of the camera fail. Frames are expected
 * unmirrored (as the camera delivers them, not as the selfie preview shows them).
 */
export async function assessLiveness(frames: Uint8Array[], options: { challenge?: LivenessChallenge } = {}): Promise<LivenessAssessment> {
  const { minFrames, maxFrames } = LIVENESS_THRESHOLDS;
  if (frames.length < minFrames || frames.length > maxFrames) {
    throw new AppError("VALIDATION", `Se esperaban entre ${minFrames} y ${maxFrames} imágenes; llegaron ${frames.length}.`, "frames");
  }
  const reasons: string[] = [];
  if (frames.every((frame) => Buffer.compare(frame, frames[0]) === 0)) reasons.push("frames-identical");

  const faces: FaceAnalysis[] = [];
  for (const [index, frame] of frames.entries()) {
    try {
      faces.push(await analyzeFace(frame, { multipleFaces: "reject" }));
    } catch (error) {
      // an undecodable frame is a client fault; a frame without one clear face is a failed check
      if (!(error instanceof FaceError) || error.reason === "INVALID_IMAGE") throw error;
      reasons.push(`frame-${index}-${error.reason.toLowerCase().replaceAll("_", "-")}`);
    }
  }
  if (faces.length < minFrames) {
    reasons.push("too-few-faces");
    return { live: false, reasons, scores: { antispoof: 0, liveness: 0, motion: 0 }, motion: { turn: 0, scale: 1, nonRigid: 0 } };
  }

  if (faces.some((face) => cosineSimilarity(face.embedding, faces[0].embedding) < DEFAULT_FACE_MATCH_THRESHOLD)) reasons.push("face-changed");
  const antispoof = median(faces.map((face) => face.antispoof ?? 0));
  const liveness = median(faces.map((face) => face.liveness ?? 0));
  if (antispoof < LIVENESS_THRESHOLDS.antispoof) reasons.push("antispoof-low");
  if (liveness < LIVENESS_THRESHOLDS.liveness) reasons.push("liveness-low");

  const motion = measureHeadMotion(faces.map((face) => face.mesh));
  const progress = motionProgress(motion, options.challenge);
  if (progress < 1) reasons.push(options.challenge ? `challenge-${options.challenge}-not-met` : "no-3d-motion");

  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    live: reasons.length === 0,
    reasons,
    scores: { antispoof: round(antispoof), liveness: round(liveness), motion: round(progress) },
    motion: { turn: round(motion.turn), scale: round(motion.scale), nonRigid: round(motion.nonRigid) },
  };
}

/** Fraction of the required movement achieved, capped at 1. */
function motionProgress(motion: HeadMotion, challenge: LivenessChallenge | undefined): number {
  const t = LIVENESS_THRESHOLDS;
  const progress =
    challenge === "turn-left"
      ? motion.turn / t.turn
      : challenge === "turn-right"
        ? -motion.turn / t.turn
        : challenge === "move-closer"
          ? (motion.scale - 1) / (t.scale - 1)
          : Math.max(motion.nonRigid / t.nonRigid, Math.abs(motion.turn) / t.freeTurn);
  return Math.max(0, Math.min(1, progress));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
