import { AppError } from "@/lib/errors";
import { analyzeFace, type FaceAnalysis } from "./analyze-face";
import { cosineSimilarity } from "./cosine-similarity";
import { FaceError } from "./face-error";
import { DEFAULT_FACE_MATCH_THRESHOLD } from "./match-faces";
import { challengeProgress, type LivenessChallenge, type PoseChange } from "./measure-challenge";
import { measureHeadMotion, type HeadMotion } from "./measure-head-motion";

export { LIVENESS_CHALLENGES, type LivenessChallenge } from "./measure-challenge";

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
  /** Per asked challenge, in order: the share achieved and the best frame's change. */
  challenges: { challenge: LivenessChallenge; progress: number; best: PoseChange }[];
  /** Frame 0's analysis (the start pose, looking at the camera), for the portrait match; absent when it had no usable face. */
  startFace?: FaceAnalysis;
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
  /** Without a challenge: non-rigid change 2× the fixture clip's jitter (0.013), or a small turn. */
  nonRigid: 0.025,
  freeTurn: 0.08,
} as const;

/**
 * Decides whether 3–8 frames captured over a few seconds show a live person: Human's antispoof and
 * liveness scores, one and the same face in every frame, and the movements the server asked for.
 * Frame 0 is the start pose (the signer looking at the camera); the frames after it are split
 * evenly between `challenges`, in order, and each challenge is measured on its own frames against
 * frame 0 (lib/faces/measure-challenge.ts). Without challenges any non-rigid movement is required.
 * Frames are expected unmirrored (as the camera delivers them, not as the selfie preview shows them).
 */
export async function assessLiveness(
  frames: Uint8Array[],
  options: {
    challenges?: LivenessChallenge[];
    /** How a frame is analysed: exactly one face (the default), or an analysis of it kept from earlier (lib/signers/analyzed-frames.ts). */
    analyze?: (frame: Uint8Array) => Promise<FaceAnalysis>;
  } = {},
): Promise<LivenessAssessment> {
  const analyze = options.analyze ?? ((frame: Uint8Array) => analyzeFace(frame, { multipleFaces: "reject" }));
  const { minFrames, maxFrames } = LIVENESS_THRESHOLDS;
  const challenges = options.challenges ?? [];
  if (frames.length < Math.max(minFrames, 1 + challenges.length) || frames.length > maxFrames) {
    throw new AppError("VALIDATION", `Se esperaban entre ${minFrames} y ${maxFrames} imágenes; llegaron ${frames.length}.`, "frames");
  }
  const reasons: string[] = [];
  if (frames.every((frame) => Buffer.compare(frame, frames[0]) === 0)) reasons.push("frames-identical");

  const faces: (FaceAnalysis | undefined)[] = [];
  for (const [index, frame] of frames.entries()) {
    try {
      faces.push(await analyze(frame));
    } catch (error) {
      // an undecodable frame is a client fault; a frame without one clear face is a failed check
      if (!(error instanceof FaceError) || error.reason === "INVALID_IMAGE") throw error;
      reasons.push(`frame-${index}-${error.reason.toLowerCase().replaceAll("_", "-")}`);
      faces.push(undefined);
    }
  }
  const found = faces.filter((face): face is FaceAnalysis => face !== undefined);
  if (found.length < minFrames || !faces[0]) {
    if (found.length < minFrames) reasons.push("too-few-faces");
    return { live: false, reasons, scores: { antispoof: 0, liveness: 0, motion: 0 }, motion: { turn: 0, scale: 1, nonRigid: 0 }, challenges: [] };
  }

  const start = faces[0];
  if (found.some((face) => cosineSimilarity(face.embedding, start.embedding) < DEFAULT_FACE_MATCH_THRESHOLD)) reasons.push("face-changed");
  const antispoof = median(found.map((face) => face.antispoof ?? 0));
  const liveness = median(found.map((face) => face.liveness ?? 0));
  if (antispoof < LIVENESS_THRESHOLDS.antispoof) reasons.push("antispoof-low");
  if (liveness < LIVENESS_THRESHOLDS.liveness) reasons.push("liveness-low");

  const motion = measureHeadMotion(found.map((face) => face.mesh));
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const measured = challenges.map((challenge, i) => {
    const segment = segmentOf(faces.slice(1), i, challenges.length).filter((face): face is FaceAnalysis => face !== undefined);
    const { progress, best } = challengeProgress(challenge, start.mesh, segment.map((face) => face.mesh));
    if (progress < 1) reasons.push(`challenge-${challenge}-not-met`);
    return { challenge, progress: round(progress), best: { turn: round(best.turn), headShift: round(best.headShift), lookUp: round(best.lookUp), smile: round(best.smile), closer: round(best.closer) } satisfies PoseChange };
  });
  const freeMotion = Math.max(motion.nonRigid / LIVENESS_THRESHOLDS.nonRigid, Math.abs(motion.turn) / LIVENESS_THRESHOLDS.freeTurn);
  const progress = challenges.length > 0 ? Math.min(...measured.map((m) => m.progress)) : Math.max(0, Math.min(1, freeMotion));
  if (challenges.length === 0 && progress < 1) reasons.push("no-3d-motion");

  return {
    live: reasons.length === 0,
    reasons,
    scores: { antispoof: round(antispoof), liveness: round(liveness), motion: round(progress) },
    motion: { turn: round(motion.turn), scale: round(motion.scale), nonRigid: round(motion.nonRigid) },
    challenges: measured,
    startFace: start,
  };
}

/** The frames of challenge `index` of `count`: an even share of `frames`, the last one taking the rest. */
function segmentOf<T>(frames: T[], index: number, count: number): T[] {
  const size = Math.floor(frames.length / count);
  return frames.slice(index * size, index === count - 1 ? frames.length : (index + 1) * size);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
