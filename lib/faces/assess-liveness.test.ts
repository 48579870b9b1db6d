import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { assessLiveness, type LivenessChallenge } from "./assess-liveness";
import { loadFaceEngine } from "./load-face-engine";
import { encodeFrame, frameOf, makeFaceScene, type FaceScene, type Motion } from "./testing/make-face-frames";
import { makeY4mClip } from "./testing/make-y4m-clip";
import { readY4mFrames } from "./testing/read-y4m-frames";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
const read = (file: string) => new Uint8Array(fs.readFileSync(`${FACES}/${file}`));
let zoomClip: Uint8Array[];
let scene: FaceScene;

/** The start pose, then 3 frames per motion (as the signer page captures them). */
function clip(motions: Motion[], options: { noise?: number } = {}): Uint8Array[] {
  const frames = [encodeFrame(frameOf(scene, motions[0], 0, { seed: 1, ...options }))];
  motions.forEach((motion, m) => {
    for (let i = 1; i <= 3; i++) frames.push(encodeFrame(frameOf(scene, motion, i / 3, { seed: 10 * m + i + 1, ...options })));
  });
  return frames;
}

beforeAll(async () => {
  await loadFaceEngine();
  // 4 frames over 2 s of the fake-camera clip: a 2 % digital zoom on a still photo
  zoomClip = readY4mFrames(new Uint8Array(fs.readFileSync(await makeY4mClip("face-zoom"))), [0, 3, 7, 10]);
  scene = await makeFaceScene(read("person-a-obama/a3-white-house-event.jpg"));
}, 120_000);

// each case analyses 7 frames (~1 s each on a busy 2-core machine): generous limits
describe("assessLiveness", () => {
  it.each([[["turn-left", "smile"]], [["look-up", "turn-right"]], [["turn-right", "move-closer"]]] as LivenessChallenge[][][])("passes a live stand-in doing %j in that order, and fails it in the other order", async (challenges) => {
    const live = await assessLiveness(clip(challenges), { challenges });
    expect(live, JSON.stringify(live.challenges)).toMatchObject({ live: true, reasons: [] });
    const swapped = await assessLiveness(clip(challenges), { challenges: [...challenges].reverse() });
    expect(swapped.live).toBe(false);
    expect(swapped.reasons.some((reason) => reason.startsWith("challenge-"))).toBe(true);
  }, 180_000);

  it("refuses one photo whose nose is warped sideways to fake a turn, even with the other movement animated", async () => {
    const attack = await assessLiveness(clip(["nose-warped-turn-left", "smile"], { noise: 3 }), { challenges: ["turn-left", "smile"] });
    expect(attack.live, JSON.stringify(attack.challenges)).toBe(false);
    // (the distorted face may also no longer match the start frame: "face-changed")
    expect(attack.reasons).toContain("challenge-turn-left-not-met");
    // the nose did move as in a turn: the face's outline staying put is what gives it away
    expect(attack.challenges[0].best.turn).toBeGreaterThan(0.18);
    expect(attack.challenges[0].best.headShift).toBeLessThan(0.04);
  }, 180_000);

  it("refuses a still photo held in front of the camera", async () => {
    const challenges: LivenessChallenge[] = ["turn-left", "look-up"];
    const still = await assessLiveness(clip(["still", "still"]), { challenges });
    expect(still.live).toBe(false);
    expect(still.reasons).toEqual(["challenge-turn-left-not-met", "challenge-look-up-not-met"]);
  }, 180_000);

  it("identical frames of one still fail", async () => {
    const still = zoomClip[0];
    const result = await assessLiveness([still, still, still, still], { challenges: ["turn-left", "smile"] });
    expect(result.live).toBe(false);
    expect(result.reasons).toContain("frames-identical");
    expect(result.scores.motion).toBe(0);
  }, 120_000);

  it.each([[undefined], [["turn-left", "move-closer"]]] as [LivenessChallenge[] | undefined][])("a slow zoom on a photo is not head motion (challenges %j)", async (challenges) => {
    const result = await assessLiveness(zoomClip, { challenges });
    expect(result.live).toBe(false);
    expect(result.reasons).toEqual(challenges ? challenges.map((c) => `challenge-${c}-not-met`) : ["no-3d-motion"]);
    expect(result.motion.nonRigid).toBeLessThan(0.02);
    expect(result.motion.scale).toBeLessThan(1.05);
  }, 120_000);

  it("fails frames without a face or with another person's face", async () => {
    const noFace = readY4mFrames(new Uint8Array(fs.readFileSync(await makeY4mClip("no-face"))), [0, 2, 4]);
    const empty = await assessLiveness(noFace);
    expect(empty.live).toBe(false);
    expect(empty.reasons).toEqual(expect.arrayContaining(["frame-0-no-face", "too-few-faces"]));
    const swapped = await assessLiveness([zoomClip[0], read("person-b-biden/b2-selfie-like-480x640.jpg"), zoomClip[3]]);
    expect(swapped.reasons).toContain("face-changed");
  }, 120_000);

  it("asks for 3 to 8 frames", async () => {
    await expect(assessLiveness(zoomClip.slice(0, 2))).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(assessLiveness([...zoomClip, ...zoomClip, zoomClip[0]])).rejects.toMatchObject({ code: "VALIDATION" });
  });
});
