import { describe, expect, it } from "vitest";
import { calibrateHeldOut, calibrateOnSplit, CalibrationError, chooseThreshold, measureRates, pairFaces, type FacePair, type LabelledFace } from "./calibrate-threshold";

/** A face whose descriptor is at `angle` radians on the unit circle: cosine similarities are exact cosines of angle differences. */
const face = (file: string, person: string, angle: number): LabelledFace => ({ file, person, embedding: [Math.cos(angle), Math.sin(angle)], digest: file });
const pair = (similarity: number, same: boolean): FacePair => ({ a: "x", b: "y", same, similarity });

describe("chooseThreshold", () => {
  it("puts the threshold one 0.001 step above the highest different-person score it may not accept", () => {
    const pairs = [pair(0.5, false), pair(0.62, false), pair(0.3, false), pair(0.9, true)];
    expect(chooseThreshold(pairs, 0.001)).toBe(0.621);
    // 1 in 3 allowed: the second highest must be refused
    expect(chooseThreshold(pairs, 0.34)).toBe(0.501);
    // its counter-test: the pair it chose against is refused and the next below is not needed
    expect(measureRates(pairs, 0.621).falseAccepts.errors).toBe(0);
    expect(measureRates(pairs, 0.62).falseAccepts.errors).toBe(1);
  });

  it("refuses when different people score 1: no threshold can keep them apart", () => {
    expect(() => chooseThreshold([pair(1, false), pair(1, true)], 0.001)).toThrow(CalibrationError);
    expect(() => chooseThreshold([pair(0.9, true)], 0.001)).toThrow(/no different-person pairs/);
  });
});

describe("measureRates", () => {
  it("counts false accepts among different people and false rejects among the same person, with exact bounds", () => {
    const pairs = [pair(0.7, false), pair(0.2, false), pair(0.59, true), pair(0.8, true), pair(0.61, true), pair(0.1, false)];
    const { falseAccepts, falseRejects } = measureRates(pairs, 0.6);
    expect(falseAccepts).toMatchObject({ errors: 1, trials: 3, rate: 1 / 3 });
    expect(falseRejects).toMatchObject({ errors: 1, trials: 3, rate: 1 / 3 });
    // 1 of 3: Clopper–Pearson 0.0084–0.9057 (R binom.test)
    expect(falseAccepts.lower).toBeCloseTo(0.0084, 4);
    expect(falseAccepts.upper).toBeCloseTo(0.9057, 4);
  });
});

describe("held-out calibration", () => {
  // four people, two photos each; p2's photos sit close to p3's, so where the threshold lands depends on who tuned it
  const faces = [
    face("a1", "p1", 0), face("a2", "p1", 0.2),
    face("b1", "p2", 1.2), face("b2", "p2", 1.4),
    face("c1", "p3", 1.9), face("c2", "p3", 2.1),
    face("d1", "p4", 3.0), face("d2", "p4", 3.3),
  ];

  it("splits by person (every other person by name), chooses on one half and measures only pairs within the other", () => {
    const result = calibrateHeldOut(faces, 0.001);
    expect(result.tuningPeople).toEqual(["p1", "p3"]);
    expect(result.heldOutPeople).toEqual(["p2", "p4"]);
    // chosen on p1 × p3 only: the closest different pair there is a2–c1, cos(1.7)
    expect(result.threshold).toBe(Math.round(Math.cos(1.7) * 1000 + 1) / 1000);
    // 4 photos of p2 and p4: 2 same-person pairs and 4 different-person pairs, none crossing to the tuning half
    expect(result.pairs.every((p) => /^[bd]/.test(p.a) && /^[bd]/.test(p.b))).toBe(true);
    expect([result.falseRejects.trials, result.falseAccepts.trials]).toEqual([2, 4]);
  });

  it("chose on the other half, the threshold would differ: the split is what the rates depend on", () => {
    const other = calibrateOnSplit(faces, ["p2", "p4"], ["p1", "p3"], 0.001);
    expect(other.threshold).not.toBe(calibrateHeldOut(faces, 0.001).threshold);
    expect(other.pairs.every((p) => /^[ac]/.test(p.a) && /^[ac]/.test(p.b))).toBe(true);
  });

  it("refuses a planted leak: a person on both sides", () => {
    expect(() => calibrateOnSplit(faces, ["p1", "p2"], ["p2", "p3"], 0.001)).toThrow(/person on both sides of the split: p2/);
  });

  it("refuses a planted leak: the same photo filed under a person on each side", () => {
    const planted = [...faces, { ...faces[0], file: "a1-copy", person: "p2" }];
    expect(() => calibrateHeldOut(planted, 0.001)).toThrow(/same photo is on both sides of the split: a1 and a1-copy/);
    // counter-test: a copy on the same side (p1 again) is not a leak
    expect(() => calibrateHeldOut([...faces, { ...faces[0], file: "a1-copy", person: "p1" }], 0.001)).not.toThrow();
  });

  it("needs enough people to hold some out", () => {
    expect(() => calibrateHeldOut(faces.slice(0, 6), 0.001)).toThrow(/at least 4 people/);
  });

  it("pairs each photo with every other once", () => {
    expect(pairFaces(faces)).toHaveLength((8 * 7) / 2);
  });
});
