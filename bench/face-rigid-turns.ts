// What a real head's turn and nod do to the movement measures (docs/faces.md, lib/faces/measure-challenge.ts):
// each fixture face's own 3-D mesh rotated about the neck's axis, measured as geometry and, drawn as
// a picture, measured again by the face detector. Prints ranges over the faces; never asserts.
//
// usage: npx tsx bench/face-rigid-turns.ts
import fs from "node:fs";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { CHALLENGE_THRESHOLDS, poseChange, type PoseChange } from "@/lib/faces/measure-challenge";
import { encodeFrame, frameOf, makeFaceScene, type Motion } from "@/lib/faces/testing/make-face-frames";
import { rotateMesh } from "@/lib/faces/testing/rotate-face";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
const PHOTOS = [
  ...["a1-official-portrait-2012", "a2-speech-podium", "a3-white-house-event", "a4-press-briefing-landscape"].map((f) => `person-a-obama/${f}.jpg`),
  ...["b1-official-portrait-2013", "b2-white-house-event"].map((f) => `person-b-biden/${f}.jpg`),
  ...[1, 2, 3, 4, 5].map((n) => `different-people/d${n}-woman.jpg`),
];
const radians = (degrees: number) => (degrees * Math.PI) / 180;

async function main(): Promise<void> {
  const ranges = new Map<string, number[]>();
  const add = (key: string, value: number) => ranges.set(key, [...(ranges.get(key) ?? []), value]);
  for (const photo of PHOTOS) {
    const { mesh } = await analyzeFace(new Uint8Array(fs.readFileSync(`${FACES}/${photo}`)), { multipleFaces: "largest" });
    for (const degrees of [5, 10, 15, 25]) {
      const turn = poseChange(mesh, rotateMesh(mesh, { yaw: radians(degrees), pitch: 0 }));
      add(`geometry: turn ${degrees}°, nose`, turn.turn);
      add(`geometry: turn ${degrees}°, outline`, turn.headShift);
      add(`geometry: nod up ${degrees}°, look-up`, poseChange(mesh, rotateMesh(mesh, { yaw: 0, pitch: radians(degrees) })).lookUp);
    }
    // drawn as pictures (the stand-ins of the tests: 25°) and measured by the detector, against the start frame
    const scene = await makeFaceScene(new Uint8Array(fs.readFileSync(`${FACES}/${photo}`)));
    const start = (await analyzeFace(encodeFrame(frameOf(scene, "still", 0)))).mesh;
    const measured = async (motion: Motion): Promise<PoseChange> => poseChange(start, (await analyzeFace(encodeFrame(frameOf(scene, motion, 1, { seed: 3 })))).mesh);
    const left = await measured("turn-left");
    const right = await measured("turn-right");
    add("detector: turn 25° (both sides), nose", left.turn);
    add("detector: turn 25° (both sides), nose", -right.turn);
    add("detector: turn 25° (both sides), outline", left.headShift);
    add("detector: turn 25° (both sides), outline", -right.headShift);
    add("detector: nod up 25°, look-up", (await measured("look-up")).lookUp);
    const still = await measured("still");
    add("detector: still frame, |nose|", Math.abs(still.turn));
    add("detector: still frame, |outline|", Math.abs(still.headShift));
    add("detector: still frame, |look-up|", Math.abs(still.lookUp));
  }
  console.log(`${PHOTOS.length} fixture faces; thresholds: turn nose ${CHALLENGE_THRESHOLDS.turn}, outline ${CHALLENGE_THRESHOLDS.headShift}, look-up ${CHALLENGE_THRESHOLDS.lookUp}`);
  for (const [key, values] of ranges) console.log(`  ${key.padEnd(44)} ${Math.min(...values).toFixed(3)} – ${Math.max(...values).toFixed(3)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
