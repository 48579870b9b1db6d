import type { AnalyzeFaceOptions, FaceAnalysis } from "./analyze-face";
import { calibrateHeldOut, chooseThreshold, digestOf, pairFaces, type FacePair, type HeldOutCalibration, type LabelledFace } from "./calibrate-threshold";
import { FaceError } from "./face-error";

export interface CalibrateFaceThresholdInput {
  /** Rows of PEOPLE.tsv: a photo and who is on it. */
  photos: { file: string; person: string }[];
  /** Target false-accept rate, e.g. 0.001. */
  far: number;
  /** Split by person and report rates on the people the threshold was not chosen on. */
  holdout: boolean;
}

export type FaceThresholdCalibration =
  | { holdout: false; threshold: number; pairs: FacePair[]; skipped: SkippedPhoto[]; photos: number; people: number }
  | ({ holdout: true; skipped: SkippedPhoto[]; photos: number; people: number } & HeldOutCalibration);

export interface SkippedPhoto {
  file: string;
  reason: string;
}

export interface CalibrateFaceThresholdDeps {
  readImage(file: string): Promise<Uint8Array>;
  analyzeFace(bytes: Uint8Array, options: AnalyzeFaceOptions): Promise<FaceAnalysis>;
}

/**
 * Describes every labelled photo once and chooses the threshold meeting `far`. Without `holdout`
 * it returns the threshold and the pairs (for a DET curve) but no rates: rates measured on the
 * photos the threshold was chosen on flatter it. With `holdout` the rates are the held-out people's.
 */
export async function calibrateFaceThreshold(input: CalibrateFaceThresholdInput, deps: CalibrateFaceThresholdDeps): Promise<FaceThresholdCalibration> {
  if (!(input.far > 0 && input.far < 1)) throw new RangeError(`--far must be in (0, 1), got ${input.far}`);
  const faces: LabelledFace[] = [];
  const skipped: SkippedPhoto[] = [];
  for (const { file, person } of input.photos) {
    try {
      const bytes = await deps.readImage(file);
      // a reference-like photo may print a small second portrait: the dominant face is the person
      const { embedding } = await deps.analyzeFace(bytes, { multipleFaces: "largest" });
      faces.push({ file, person, embedding, digest: digestOf(bytes) });
    } catch (error) {
      if (error instanceof FaceError) skipped.push({ file, reason: error.reason.toLowerCase() });
      else if ((error as NodeJS.ErrnoException).code === "ENOENT") skipped.push({ file, reason: "unreadable" });
      else throw error;
    }
  }
  const counts = { skipped, photos: faces.length, people: new Set(faces.map((face) => face.person)).size };
  if (input.holdout) return { holdout: true, ...counts, ...calibrateHeldOut(faces, input.far) };
  const pairs = pairFaces(faces);
  return { holdout: false, threshold: chooseThreshold(pairs, input.far), pairs, ...counts };
}
