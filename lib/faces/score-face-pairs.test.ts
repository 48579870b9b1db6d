import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/test/fixtures-dir";
import { analyzeFace, type AnalyzeFaceOptions } from "./analyze-face";
import { calibrateFaceThreshold } from "./calibrate-face-threshold";
import { scoreFacePairs, type ScoredFacePair } from "./score-face-pairs";

// real photos, the real model (loaded once for the file): these take a few seconds of CPU
const readImage = (file: string) => readFile(fixturePath("faces", file)).then((buffer) => new Uint8Array(buffer));
const P01 = ["calibration/p01/img5.jpg", "calibration/p01/img10.jpg"];
const P02 = ["calibration/p02/img50.jpg", "calibration/p02/img51.jpg"];
const NO_FACE = "no-face/no-face-chandelier-480x640.jpg";

function countingAnalyzer() {
  const calls: string[] = [];
  return {
    calls,
    analyzeFace: (bytes: Uint8Array, options: AnalyzeFaceOptions) => {
      calls.push(`${options.multipleFaces}:${bytes.length}`);
      return analyzeFace(bytes, options);
    },
  };
}

describe("scoreFacePairs", () => {
  it("decides each pair at the threshold, names an unusable image's reason, and analyses each image once per role", async () => {
    const counter = countingAnalyzer();
    const pairs = [
      { reference: P01[0], selfie: P01[1] },
      { reference: P01[0], selfie: P02[0] },
      { reference: P01[0], selfie: NO_FACE },
      { reference: P01[0], selfie: "missing.jpg" },
      { reference: P01[0], selfie: P01[1] },
    ];
    const rows: ScoredFacePair[] = [];
    for await (const row of scoreFacePairs({ pairs, threshold: 0.64 }, { readImage, analyzeFace: counter.analyzeFace })) rows.push(row);

    expect(rows.map((row) => row.decision)).toEqual(["match", "no-match", "error:no_face", "error:unreadable", "match"]);
    expect(rows[0].similarity).toBeGreaterThanOrEqual(0.64);
    expect(rows[1].similarity).toBeLessThan(0.64);
    expect(rows[2].similarity).toBeUndefined();
    // the reference once, three selfies once each (the missing file is never analysed)
    expect(counter.calls).toHaveLength(4);
    expect(counter.calls.filter((call) => call.startsWith("largest:"))).toHaveLength(1);
  });

  it("the threshold decides: the same pair is a no-match above its score", async () => {
    const rows: ScoredFacePair[] = [];
    for await (const row of scoreFacePairs({ pairs: [{ reference: P01[0], selfie: P01[1] }], threshold: 0.999 }, { readImage, analyzeFace })) rows.push(row);
    expect(rows.map((row) => row.decision)).toEqual(["no-match"]);
  });
});

describe("calibrateFaceThreshold on photos", () => {
  const photos = [
    ...P01.map((file) => ({ file, person: "p01" })),
    ...P02.map((file) => ({ file, person: "p02" })),
    { file: "calibration/p03/img12.jpg", person: "p03" },
    { file: "calibration/p04/img62.jpg", person: "p04" },
    { file: NO_FACE, person: "p05" },
  ];

  it("with holdout: chooses on p01 and p03, reports only p02 and p04's pairs, skips the photo without a face", async () => {
    const result = await calibrateFaceThreshold({ photos, far: 0.001, holdout: true }, { readImage, analyzeFace });
    if (!result.holdout) throw new Error("expected a held-out result");
    expect(result.skipped).toEqual([{ file: NO_FACE, reason: "no_face" }]);
    expect([result.tuningPeople, result.heldOutPeople]).toEqual([["p01", "p03"], ["p02", "p04"]]);
    // held out: p02's two photos (1 same-person pair) and p04's one (2 different-person pairs)
    expect([result.falseRejects.trials, result.falseAccepts.trials]).toEqual([1, 2]);
    expect(result.falseAccepts.upper).toBeCloseTo(1 - 0.025 ** (1 / 2), 9);
  });

  it("without holdout: a threshold and no rates", async () => {
    const result = await calibrateFaceThreshold({ photos, far: 0.001, holdout: false }, { readImage, analyzeFace });
    expect(result).not.toHaveProperty("falseAccepts");
    expect(result.threshold).toBeGreaterThan(0.5);
  });

  it("refuses a planted leak: one photo filed as two people on either side of the split", async () => {
    const planted = [...photos, { file: P01[0], person: "p02" }];
    await expect(calibrateFaceThreshold({ photos: planted, far: 0.001, holdout: true }, { readImage, analyzeFace })).rejects.toThrow(/same photo is on both sides/);
  });
});
