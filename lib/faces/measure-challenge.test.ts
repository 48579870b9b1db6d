import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeFace } from "./analyze-face";
import { challengeProgress } from "./measure-challenge";
import type { FaceMesh } from "./measure-head-motion";
import { rotateMesh } from "./testing/rotate-face";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
const FIXTURE_FACES = [
  "person-a-obama/a1-official-portrait-2012.jpg",
  "person-a-obama/a3-selfie-like-480x640.jpg",
  "person-a-obama/a4-selfie-like-480x640.jpg",
  "person-b-biden/b1-official-portrait-2013.jpg",
  "person-b-biden/b2-selfie-like-480x640.jpg",
  ...[1, 2, 3, 4, 5].map((n) => `different-people/d${n}-woman.jpg`),
];

const OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];

/** A stand-in mesh 100 px wide: edges 234/454, nose 1, eye corners 33/263, chin 152, mouth corners 61/291. */
function face(options: { noseX?: number; noseY?: number; shift?: number; mouth?: number; scale?: number } = {}): FaceMesh {
  const { noseX = 50, noseY = 60, shift = 0, mouth = 40, scale = 1 } = options;
  const mesh: FaceMesh = Array.from({ length: 468 }, () => [50, 50, 0]);
  OVAL.forEach((index, i) => {
    const angle = (2 * Math.PI * i) / OVAL.length;
    mesh[index] = [50 + 50 * Math.sin(angle), 60 - 60 * Math.cos(angle), 0];
  });
  mesh[234] = [0, 60, 0];
  mesh[454] = [100, 60, 0];
  mesh[1] = [noseX, noseY, 0];
  mesh[33] = [25, 40, 0];
  mesh[263] = [75, 40, 0];
  mesh[152] = [50, 120, 0];
  mesh[61] = [50 - mouth / 2, 90, 0];
  mesh[291] = [50 + mouth / 2, 90, 0];
  // the whole face moved sideways by `shift` px, about its centre by `scale`
  return mesh.map(([x, y, z]) => [50 + (x - 50) * scale + shift, 60 + (y - 60) * scale, z]);
}

describe("challengeProgress", () => {
  it("a turn needs the nose to rotate between the face edges and the face's outline to follow it", () => {
    const start = face();
    // a real turn to the signer's left (unmirrored: towards image right): the nose moves most, the outline a little
    expect(challengeProgress("turn-left", start, [face({ noseX: 62, shift: 8 })]).progress).toBe(1);
    expect(challengeProgress("turn-right", start, [face({ noseX: 38, shift: -8 })]).progress).toBe(1);
    // the wrong direction is nothing
    expect(challengeProgress("turn-right", start, [face({ noseX: 62, shift: 8 })]).progress).toBe(0);
    // a photo whose nose alone is warped: the nose moves, the outline stays
    expect(challengeProgress("turn-left", start, [face({ noseX: 75, shift: 1 })]).progress).toBeLessThan(1);
    // a photo slid sideways: the outline moves, the nose stays centred between the edges
    expect(challengeProgress("turn-left", start, [face({ shift: 40 })]).progress).toBe(0);
  });

  it("a rigid head turn of 15° and a nod of 25° are enough on every fixture face (their own 3-D mesh, rotated about the neck)", async () => {
    for (const photo of FIXTURE_FACES) {
      const { mesh } = await analyzeFace(new Uint8Array(fs.readFileSync(`${FACES}/${photo}`)), { multipleFaces: "largest" });
      const degrees = (d: number) => (d * Math.PI) / 180;
      for (const [challenge, rotation] of [
        ["turn-left", { yaw: degrees(15), pitch: 0 }],
        ["turn-right", { yaw: degrees(-15), pitch: 0 }],
        ["look-up", { yaw: 0, pitch: degrees(25) }],
      ] as const) {
        const { progress, best } = challengeProgress(challenge, mesh, [rotateMesh(mesh, rotation)]);
        expect(progress, `${photo} ${challenge} ${JSON.stringify(best)}`).toBe(1);
      }
      // and half of that is not a turn yet: 5° must not pass for a turn
      expect(challengeProgress("turn-left", mesh, [rotateMesh(mesh, { yaw: degrees(5), pitch: 0 })]).progress).toBeLessThan(1);
    }
  }, 120_000);

  it("looking up raises the nose towards the eyes; a smile widens the mouth; moving closer widens the face", () => {
    const start = face();
    expect(challengeProgress("look-up", start, [face({ noseY: 52 })]).progress).toBe(1);
    expect(challengeProgress("look-up", start, [face({ noseY: 62 })]).progress).toBe(0);
    expect(challengeProgress("smile", start, [face({ mouth: 44 })]).progress).toBe(1);
    expect(challengeProgress("smile", start, [face({ mouth: 41 })]).progress).toBeLessThan(1);
    expect(challengeProgress("move-closer", start, [face({ scale: 1.2 })]).progress).toBe(1);
    expect(challengeProgress("move-closer", start, [face({ scale: 1.05 })]).progress).toBeLessThan(1);
  });

  it("takes the best frame of the movement's frames", () => {
    const start = face();
    expect(challengeProgress("smile", start, [face(), face({ mouth: 45 }), face({ mouth: 41 })]).progress).toBe(1);
    expect(challengeProgress("smile", start, []).progress).toBe(0);
  });
});
