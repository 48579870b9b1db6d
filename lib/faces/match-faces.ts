import { analyzeFace, type FaceAnalysis } from "./analyze-face";
import { cosineSimilarity } from "./cosine-similarity";
import { loadFaceEngine } from "./load-face-engine";

/**
 * Cosine similarity of Human `faceres` descriptors above which two faces count as one person.
 * Chosen by held-out measurement on 15 people (docs/faces.md, bench/face-model-compare.ts):
 * thresholds chosen on half of the people for FAR ≤ 0.1 % ranged 0.517–0.636 and the lower ones
 * let new people through, so the default sits at the top of that range; a wrong accept costs more than a retry.
 */
export const DEFAULT_FACE_MATCH_THRESHOLD = 0.64;

/** One side of a comparison, without the descriptor and mesh (they are large and biometric). */
export type FaceSummary = Omit<FaceAnalysis, "embedding" | "mesh">;

export interface FaceMatch {
  /** Cosine similarity of the two descriptors, clamped to 0–1. */
  similarity: number;
  /** Human's own `match.similarity` (normalised Euclidean distance), kept for comparison and audit. */
  humanSimilarity: number;
  decision: "match" | "no-match";
  threshold: number;
  selfie: FaceSummary;
  reference: FaceSummary;
  durationMs: number;
}

export interface MatchFacesOptions {
  /** Overrides FACE_MATCH_THRESHOLD and the default. */
  threshold?: number;
}

/**
 * Compares a selfie (exactly one face) with a reference portrait (registry photo or ID document;
 * the dominant face is used, since ID cards repeat the portrait small). Throws FaceError for
 * unusable images; a readable pair always yields a decision. Either side may come already analysed
 * (the liveness check analysed the same frame, the warm-up the registry photo: a second pass would
 * cost ~0.2 s for nothing); a reference must then have been analysed with `multipleFaces: "largest"`.
 */
export async function matchFaces(selfieImage: Uint8Array | FaceAnalysis, referenceImage: Uint8Array | FaceAnalysis, options: MatchFacesOptions = {}): Promise<FaceMatch> {
  const started = performance.now();
  const threshold = options.threshold ?? configuredFaceMatchThreshold();
  const selfie = selfieImage instanceof Uint8Array ? await analyzeFace(selfieImage, { multipleFaces: "reject" }) : selfieImage;
  const reference = referenceImage instanceof Uint8Array ? await analyzeFace(referenceImage, { multipleFaces: "largest" }) : referenceImage;
  // rounded before deciding, so the stored score and the decision never disagree
  const similarity = Math.round(Math.max(0, Math.min(1, cosineSimilarity(selfie.embedding, reference.embedding))) * 1000) / 1000;
  const { human } = await loadFaceEngine();
  return {
    similarity,
    humanSimilarity: human.match.similarity(selfie.embedding, reference.embedding),
    decision: similarity >= threshold ? "match" : "no-match",
    threshold,
    selfie: summarize(selfie),
    reference: summarize(reference),
    durationMs: Math.round(performance.now() - started),
  };
}

/** FACE_MATCH_THRESHOLD, else the default; read on every call so an operator can change it without a restart of this module's callers. */
export function configuredFaceMatchThreshold(): number {
  const raw = process.env.FACE_MATCH_THRESHOLD?.trim();
  if (!raw) return DEFAULT_FACE_MATCH_THRESHOLD;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new Error(`FACE_MATCH_THRESHOLD must be a number in (0, 1], got "${raw}"`);
  return value;
}

function summarize(analysis: FaceAnalysis): FaceSummary {
  const { embedding: _embedding, mesh: _mesh, ...summary } = analysis;
  return summary;
}
