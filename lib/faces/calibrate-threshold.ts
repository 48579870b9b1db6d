import { createHash } from "node:crypto";
import { clopperPearson } from "./clopper-pearson";
import { cosineSimilarity } from "./cosine-similarity";

/** One labelled photo: its descriptor, its person and a digest of its bytes (to catch one photo under two names). */
export interface LabelledFace {
  file: string;
  person: string;
  embedding: number[];
  digest: string;
}

export interface FacePair {
  a: string;
  b: string;
  same: boolean;
  similarity: number;
}

/** A rate with its exact 95 % interval. */
export interface MeasuredRate {
  errors: number;
  trials: number;
  rate: number;
  lower: number;
  upper: number;
}

export interface HeldOutCalibration {
  threshold: number;
  tuningPeople: string[];
  heldOutPeople: string[];
  falseAccepts: MeasuredRate;
  falseRejects: MeasuredRate;
  /** Held-out pairs, for the DET curve. */
  pairs: FacePair[];
}

export class CalibrationError extends Error {}

export const digestOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Every pair of photos, once; similarity rounded to 3 decimals as matchFaces decides. */
export function pairFaces(faces: LabelledFace[]): FacePair[] {
  const pairs: FacePair[] = [];
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const similarity = Math.round(cosineSimilarity(faces[i].embedding, faces[j].embedding) * 1000) / 1000;
      pairs.push({ a: faces[i].file, b: faces[j].file, same: faces[i].person === faces[j].person, similarity });
    }
  }
  return pairs;
}

/**
 * The lowest threshold (a 0.001 step, as matchFaces rounds) whose false-accept rate on these pairs
 * is at most `far`: at most ⌊far · n⌋ different-person pairs may score at or above it.
 */
export function chooseThreshold(pairs: FacePair[], far: number): number {
  const impostors = pairs.filter((pair) => !pair.same).map((pair) => pair.similarity).sort((x, y) => y - x);
  if (impostors.length === 0) throw new CalibrationError("no different-person pairs to choose a threshold on");
  const allowed = Math.floor(far * impostors.length + 1e-9);
  // the (allowed+1)-th highest impostor score must fall below the threshold
  const blocked = impostors[allowed];
  if (blocked === undefined) return 0;
  const threshold = Math.round(blocked * 1000 + 1) / 1000;
  // a descriptor that scores different people at 1 cannot be thresholded at all
  if (threshold > 1) throw new CalibrationError(`no threshold up to 1 keeps false accepts at or below ${far}: different people score ${blocked}`);
  return threshold;
}

export function measureRates(pairs: FacePair[], threshold: number): { falseAccepts: MeasuredRate; falseRejects: MeasuredRate } {
  const different = pairs.filter((pair) => !pair.same);
  const same = pairs.filter((pair) => pair.same);
  return {
    falseAccepts: rateOf(different.filter((pair) => pair.similarity >= threshold).length, different.length),
    falseRejects: rateOf(same.filter((pair) => pair.similarity < threshold).length, same.length),
  };
}

function rateOf(errors: number, trials: number): MeasuredRate {
  if (trials === 0) throw new CalibrationError("a side of the split has no pairs of this kind: add people or photos");
  return { errors, trials, rate: errors / trials, ...clopperPearson(errors, trials) };
}

/**
 * Splits the people in two (every other person in name order, so the split is reproducible and
 * needs no seed), chooses the threshold on the first half and measures it on the second only.
 * Pairs that cross the halves are not used: half of each involves a photo the threshold was chosen on.
 */
export function calibrateHeldOut(faces: LabelledFace[], far: number): HeldOutCalibration {
  const people = [...new Set(faces.map((face) => face.person))].sort();
  if (people.length < 4) throw new CalibrationError(`holding out people needs at least 4 people, got ${people.length}`);
  const tuningPeople = people.filter((_, i) => i % 2 === 0);
  const heldOutPeople = people.filter((_, i) => i % 2 === 1);
  return calibrateOnSplit(faces, tuningPeople, heldOutPeople, far);
}

/** As calibrateHeldOut with the split given; refuses a split where a person or a photo is on both sides. */
export function calibrateOnSplit(faces: LabelledFace[], tuningPeople: string[], heldOutPeople: string[], far: number): HeldOutCalibration {
  const tuning = faces.filter((face) => tuningPeople.includes(face.person));
  const heldOut = faces.filter((face) => heldOutPeople.includes(face.person));
  refuseLeaks(tuning, heldOut, tuningPeople, heldOutPeople);
  const threshold = chooseThreshold(pairFaces(tuning), far);
  const pairs = pairFaces(heldOut);
  return { threshold, tuningPeople, heldOutPeople, ...measureRates(pairs, threshold), pairs };
}

function refuseLeaks(tuning: LabelledFace[], heldOut: LabelledFace[], tuningPeople: string[], heldOutPeople: string[]): void {
  const bothSides = tuningPeople.filter((person) => heldOutPeople.includes(person));
  if (bothSides.length > 0) throw new CalibrationError(`person on both sides of the split: ${bothSides.join(", ")}`);
  const tuningDigests = new Map(tuning.map((face) => [face.digest, face.file]));
  for (const face of heldOut) {
    const twin = tuningDigests.get(face.digest);
    // the same photo under two names or two people: rates on it would be measured on tuning data
    if (twin) throw new CalibrationError(`the same photo is on both sides of the split: ${twin} and ${face.file}`);
  }
}
