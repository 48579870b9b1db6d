import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { assessLiveness } from "./assess-liveness";
import { loadFaceEngine } from "./load-face-engine";
import { readY4mFrames } from "./testing/read-y4m-frames";

const FACES = "/work/shared/fixtures/faces";
const read = (file: string) => new Uint8Array(fs.readFileSync(`${FACES}/${file}`));
let zoomClip: Uint8Array[];

beforeAll(async () => {
  await loadFaceEngine();
  // 4 frames over 2 s of the fake-camera clip: a 2 % digital zoom on a still photo
  zoomClip = readY4mFrames(read("video/face-obama-640x480-5fps.y4m"), [0, 3, 7, 10]);
});

describe("assessLiveness", () => {
  it.each([undefined, "turn-left", "turn-right", "move-closer"] as const)("identical frames of one still fail (challenge %s)", async (challenge) => {
    const still = zoomClip[0];
    const result = await assessLiveness([still, still, still, still], { challenge });
    expect(result.live).toBe(false);
    expect(result.reasons).toContain("frames-identical");
    expect(result.scores.motion).toBe(0);
  });

  it.each([undefined, "turn-left", "turn-right", "move-closer"] as const)("a slow zoom on a photo is not head motion (challenge %s)", async (challenge) => {
    const result = await assessLiveness(zoomClip, { challenge });
    expect(result.live).toBe(false);
    expect(result.reasons).toEqual([challenge ? `challenge-${challenge}-not-met` : "no-3d-motion"]);
    expect(result.motion.nonRigid).toBeLessThan(0.02);
    expect(result.motion.scale).toBeLessThan(1.05);
  });

  it("sees a head turn in the requested direction only", async () => {
    // stand-in for a turn: three shots of person A whose nose moves from image left to image right
    const turning = ["person-a-obama/a2-selfie-like-480x640.jpg", "person-a-obama/a3-selfie-like-480x640.jpg", "person-a-obama/a4-selfie-like-480x640.jpg"].map(read);
    const left = await assessLiveness(turning, { challenge: "turn-left" });
    expect(left).toMatchObject({ live: true, reasons: [] });
    expect(left.scores.motion).toBe(1);
    const right = await assessLiveness(turning, { challenge: "turn-right" });
    expect(right.reasons).toEqual(["challenge-turn-right-not-met"]);
    expect((await assessLiveness([...turning].reverse(), { challenge: "turn-right" })).live).toBe(true);
  });

  it("fails frames without a face or with another person's face", async () => {
    const noFace = readY4mFrames(read("video/no-face-640x480-5fps-1s.y4m"), [0, 2, 4]);
    const empty = await assessLiveness(noFace);
    expect(empty.live).toBe(false);
    expect(empty.reasons).toEqual(expect.arrayContaining(["frame-0-no-face", "too-few-faces"]));
    const swapped = await assessLiveness([zoomClip[0], read("person-b-biden/b2-selfie-like-480x640.jpg"), zoomClip[3]]);
    expect(swapped.reasons).toContain("face-changed");
  });

  it("asks for 3 to 8 frames", async () => {
    await expect(assessLiveness(zoomClip.slice(0, 2))).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(assessLiveness([...zoomClip, ...zoomClip, zoomClip[0]])).rejects.toMatchObject({ code: "VALIDATION" });
  });
});
