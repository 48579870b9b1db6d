import type { AnalyzeFaceOptions, FaceAnalysis } from "./analyze-face";
import { cosineSimilarity } from "./cosine-similarity";
import { FaceError } from "./face-error";

export interface FacePairPaths {
  reference: string;
  selfie: string;
}

export interface ScoredFacePair extends FacePairPaths {
  /** Cosine similarity rounded to 3 decimals as matchFaces decides; absent when an image was unusable. */
  similarity?: number;
  /** "error:no_face" and the like name the first unusable image's reason. */
  decision: "match" | "no-match" | `error:${string}`;
}

export interface ScoreFacePairsDeps {
  readImage(file: string): Promise<Uint8Array>;
  analyzeFace(bytes: Uint8Array, options: AnalyzeFaceOptions): Promise<FaceAnalysis>;
}

type Analysed = { embedding: number[] } | { error: string };

/**
 * Scores each reference/selfie pair as matchFaces would decide it at `threshold`, analysing each
 * image once however many pairs name it (per role: a reference may show a small second portrait,
 * a selfie may not). Yields rows in input order; an unusable image gives `error:<reason>`, never a throw.
 */
export async function* scoreFacePairs(input: { pairs: Iterable<FacePairPaths>; threshold: number }, deps: ScoreFacePairsDeps): AsyncGenerator<ScoredFacePair> {
  const analysed = new Map<string, Promise<Analysed>>();
  const analyse = (file: string, role: "reference" | "selfie"): Promise<Analysed> => {
    const key = `${role}\0${file}`;
    let result = analysed.get(key);
    if (!result) {
      result = describe(file, role, deps);
      analysed.set(key, result);
    }
    return result;
  };
  for (const pair of input.pairs) {
    const reference = await analyse(pair.reference, "reference");
    const selfie = await analyse(pair.selfie, "selfie");
    if ("error" in reference) yield { ...pair, decision: `error:${reference.error}` };
    else if ("error" in selfie) yield { ...pair, decision: `error:${selfie.error}` };
    else {
      const similarity = Math.round(Math.max(0, Math.min(1, cosineSimilarity(selfie.embedding, reference.embedding))) * 1000) / 1000;
      yield { ...pair, similarity, decision: similarity >= input.threshold ? "match" : "no-match" };
    }
  }
}

async function describe(file: string, role: "reference" | "selfie", deps: ScoreFacePairsDeps): Promise<Analysed> {
  let bytes: Uint8Array;
  try {
    bytes = await deps.readImage(file);
  } catch {
    return { error: "unreadable" };
  }
  try {
    const { embedding } = await deps.analyzeFace(bytes, { multipleFaces: role === "reference" ? "largest" : "reject" });
    return { embedding };
  } catch (error) {
    if (error instanceof FaceError) return { error: error.reason.toLowerCase() };
    throw error;
  }
}
