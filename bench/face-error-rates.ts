// Error rates of the facial check on everything that can be made from the shared face fixtures:
// FAR/FRR of the portrait match, and how often liveness (and the whole check) lets each attack through.
// Prints figures only; it never asserts.
//
// usage: npx tsx bench/face-error-rates.ts [--pairs N] [--save DIR]     (N: how many challenge pairs; DIR: writes every clip's frames as JPEG)
import fs from "node:fs";
import path from "node:path";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { cosineSimilarity } from "@/lib/faces/cosine-similarity";
import { DEFAULT_FACE_MATCH_THRESHOLD } from "@/lib/faces/match-faces";
import { encodeFrame, frameOf, makeFaceScene, type FaceScene, type Motion } from "@/lib/faces/testing/make-face-frames";
import { judgeFacialTry } from "@/lib/signers/judge-facial-try";
import { LIVENESS_CHALLENGES, type LivenessChallenge } from "@/lib/faces/assess-liveness";
import { fixturePath } from "@/test/fixtures-dir";

const FACES = fixturePath("faces");
const read = (file: string) => new Uint8Array(fs.readFileSync(`${FACES}/${file}`));

// every single-face photo, by identity; the first "reference" of an identity is its ID/registry portrait
const IDENTITIES: Record<string, { photos: string[]; reference: string }> = {
  A: { photos: ["person-a-obama/a1-official-portrait-2012.jpg", "person-a-obama/a2-speech-podium.jpg", "person-a-obama/a3-white-house-event.jpg", "person-a-obama/a4-press-briefing-landscape.jpg"], reference: "person-a-obama/a1-id-portrait-413x531.jpg" },
  B: { photos: ["person-b-biden/b1-official-portrait-2013.jpg", "person-b-biden/b2-white-house-event.jpg"], reference: "person-b-biden/b1-id-portrait-413x531.jpg" },
  ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`d${n}`, { photos: [`different-people/d${n}-woman.jpg`], reference: `different-people/d${n}-woman.jpg` }])),
};
const MATCH_FIXTURES = [
  ...["a1-official-portrait-2012", "a1-id-portrait-413x531", "a2-speech-podium", "a2-selfie-like-480x640", "a3-white-house-event", "a3-selfie-like-480x640", "a4-press-briefing-landscape", "a4-selfie-like-480x640"].map((f) => `person-a-obama/${f}.jpg`),
  ...["b1-official-portrait-2013", "b1-id-portrait-413x531", "b2-white-house-event", "b2-selfie-like-480x640"].map((f) => `person-b-biden/${f}.jpg`),
  ...[1, 2, 3, 4, 5].map((n) => `different-people/d${n}-woman.jpg`),
];

const saveDir = process.argv.includes("--save") ? process.argv[process.argv.indexOf("--save") + 1] : undefined;

async function main(): Promise<void> {
  await matchErrorRates();
  await livenessPassRates();
}

/** FAR / FRR of the portrait match over every pair of fixture photos, at several thresholds. */
async function matchErrorRates(): Promise<void> {
  const embeddings = new Map<string, number[]>();
  for (const file of MATCH_FIXTURES) embeddings.set(file, (await analyzeFace(read(file), { multipleFaces: "largest" })).embedding);
  const identity = (file: string) => (file.startsWith("different-people") ? file : file.split("/")[0]);
  const shot = (file: string) => path.basename(file).slice(0, 2);
  const same: number[] = [];
  const different: { score: number; pair: string }[] = [];
  for (let i = 0; i < MATCH_FIXTURES.length; i++) {
    for (let j = i + 1; j < MATCH_FIXTURES.length; j++) {
      const [a, b] = [MATCH_FIXTURES[i], MATCH_FIXTURES[j]];
      const score = cosineSimilarity(embeddings.get(a)!, embeddings.get(b)!);
      if (identity(a) !== identity(b)) different.push({ score, pair: `${path.basename(a)} × ${path.basename(b)}` });
      else if (shot(a) !== shot(b)) same.push(score); // crops of one photo are not independent shots
    }
  }
  different.sort((x, y) => y.score - x.score);
  console.log(`\nmatch: ${same.length} same-person pairs (independent shots), ${different.length} different-person pairs`);
  console.log(`  closest different-person pair ${different[0].score.toFixed(3)} (${different[0].pair}); lowest same-person pair ${Math.min(...same).toFixed(3)}`);
  for (const threshold of [0.55, 0.58, 0.6, 0.61, 0.62, 0.63, 0.65, 0.68]) {
    const far = different.filter((d) => round3(d.score) >= threshold).length;
    const frr = same.filter((s) => round3(s) < threshold).length;
    const mark = threshold === DEFAULT_FACE_MATCH_THRESHOLD ? "  <- default" : "";
    console.log(`  threshold ${threshold.toFixed(2)}  FAR ${far}/${different.length} (${pct(far, different.length)})  FRR ${frr}/${same.length} (${pct(frr, same.length)})  margin to closest different pair ${(threshold - different[0].score).toFixed(3)}${mark}`);
  }
}

/** The asked movements, with every turn replaced by the attacker's fake of it. */
const turnsAs = (fake: "nose-warped" | "warped" | "shifted-warped", challenges: LivenessChallenge[]): Motion[] => challenges.map((c) => (c.startsWith("turn-") ? (`${fake}-${c}` as Motion) : c));

type Clip = { kind: string; identity: string; source: string; challenges: LivenessChallenge[]; frames: Uint8Array[] };

/** Every clip kind from every photo, judged as one facial try against the claimed identity's reference. */
async function livenessPassRates(): Promise<void> {
  const scenes = new Map<string, FaceScene>();
  for (const { photos } of Object.values(IDENTITIES)) {
    for (const photo of photos) {
      scenes.set(photo, await makeFaceScene(read(photo)));
    }
  }
  const tally = new Map<string, { tries: number; live: number; passed: number }>();
  const count = (kind: string, live: boolean, passed: boolean) => {
    const entry = tally.get(kind) ?? { tries: 0, live: 0, passed: 0 };
    entry.tries++;
    entry.live += live ? 1 : 0;
    entry.passed += passed ? 1 : 0;
    tally.set(kind, entry);
  };
  const pairs = challengePairs();
  for (const [identity, { photos, reference }] of Object.entries(IDENTITIES)) {
    for (const photo of photos) {
      const scene = scenes.get(photo)!;
      for (const challenges of pairs) {
        const clips: Clip[] = [
          // a rigid 3-D head turn or nod of the photo's face: what a real head does, and what a one-photo attacker with a 3-D face model can do
          { kind: "live stand-in (same person)", identity, source: photo, challenges, frames: clipFrames(scene, challenges.map((c) => c as Motion)) },
          { kind: "attack: still photo", identity, source: photo, challenges, frames: clipFrames(scene, challenges.map(() => "still")) },
          // the attacker animates the photo for every movement and fakes the turn with a 2-D edit:
          // the nose alone slid sideways; the fake (the face's middle warped); the same with the whole picture shifted
          { kind: "attack: one photo, its nose warped", identity, source: photo, challenges, frames: clipFrames(scene, turnsAs("nose-warped", challenges), { noise: 0 }) },
          { kind: "attack: one photo warped to fake a turn", identity, source: photo, challenges, frames: clipFrames(scene, turnsAs("warped", challenges), { noise: 0 }) },
          { kind: "attack: one photo shifted and warped", identity, source: photo, challenges, frames: clipFrames(scene, turnsAs("shifted-warped", challenges), { noise: 3 }) },
        ];
        for (const clip of clips) {
          const judged = await judgeFacialTry({ frames: clip.frames, reference: read(reference), referenceIsIdDocument: false, docId: "", challenges });
          const live = judged.kind === "judged" && judged.live;
          const passed = live && judged.kind === "judged" && judged.decision === "match";
          count(clip.kind, live, passed);
          if (saveDir) save(clip, live);
        }
        // a different person's live stand-in, presented for every other identity
        for (const [other, { reference: otherReference }] of Object.entries(IDENTITIES)) {
          if (other === identity) continue;
          const judged = await judgeFacialTry({ frames: clipFrames(scene, challenges.map((c) => c as Motion)), reference: read(otherReference), referenceIsIdDocument: false, docId: "", challenges });
          count("attack: a different person (live stand-in)", judged.kind === "judged" && judged.live, judged.kind === "judged" && judged.live && judged.decision === "match");
        }
      }
    }
  }
  console.log(`\nliveness and whole check (${pairs.length} challenge set(s) per photo: ${pairs.map((p) => p.join("+")).join(", ")})`);
  for (const [kind, { tries, live, passed }] of tally) {
    console.log(`  ${kind.padEnd(44)} tries ${String(tries).padStart(4)}  judged live ${String(live).padStart(4)} (${pct(live, tries)})  passed the whole check ${String(passed).padStart(4)} (${pct(passed, tries)})`);
  }
}

/** The challenge combinations one try can ask for: two, one of them a turn (lib/signers/facial-challenge.ts); one turn with BENCH_SINGLE_CHALLENGE. */
function challengePairs(): LivenessChallenge[][] {
  if (process.env.BENCH_SINGLE_CHALLENGE) return [["turn-left"], ["turn-right"]];
  const pairs: LivenessChallenge[][] = [];
  for (const a of LIVENESS_CHALLENGES) for (const b of LIVENESS_CHALLENGES) if (a !== b && (a.startsWith("turn") || b.startsWith("turn"))) pairs.push([a, b]);
  // --pairs N: every k-th of the 14 pairs (a whole run is ~1 400 tries, ~30 min on 2 cores)
  const wanted = process.argv.includes("--pairs") ? Number(process.argv[process.argv.indexOf("--pairs") + 1]) : pairs.length;
  const step = Math.max(1, Math.floor(pairs.length / wanted));
  return pairs.filter((_, i) => i % step === 0).slice(0, wanted);
}

/** One neutral frame, then 3 frames per challenge (5 for a single challenge, as the page captured before). */
function clipFrames(scene: FaceScene, motions: Motion[], options: { noise?: number } = {}): Uint8Array[] {
  const perMotion = motions.length === 1 ? 5 : 3;
  const frames = [encodeFrame(frameOf(scene, motions[0], 0, { seed: 1, ...options }))];
  motions.forEach((motion, m) => {
    for (let i = 1; i <= perMotion; i++) frames.push(encodeFrame(frameOf(scene, motion, i / perMotion, { seed: 10 * m + i + 1, ...options })));
  });
  return frames;
}

function save(clip: Clip, live: boolean): void {
  const dir = path.join(saveDir!, `${clip.identity}-${path.basename(clip.source, ".jpg")}-${clip.kind.replace(/[^a-z]+/gi, "-")}-${clip.challenges.join("+")}-${live ? "live" : "refused"}`);
  fs.mkdirSync(dir, { recursive: true });
  clip.frames.forEach((frame, i) => fs.writeFileSync(path.join(dir, `${i}.jpg`), frame));
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
