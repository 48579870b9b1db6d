// The face fixtures as labelled photos, and the per-pair similarity file the model benches write.
import fs from "node:fs";
import path from "node:path";
import { cosineSimilarity } from "@/lib/faces/cosine-similarity";

/**
 * The whole labelled face collection (48 independent photos of 15 people, 19 MB) is not kept in the
 * repository: the tests need a few of its photos, the model comparison needs all of them. Point
 * FACE_PHOTOS_DIR at a copy of it (its calibration/people.tsv names the people).
 */
export const FACES = (() => {
  const dir = process.env.FACE_PHOTOS_DIR;
  if (!dir || !fs.existsSync(path.join(dir, "calibration", "people.tsv"))) {
    console.error("FACE_PHOTOS_DIR must name the face photo collection (with calibration/people.tsv)");
    process.exit(2);
  }
  return dir;
})();

/** Independent shots only: the id-portrait and selfie-like files are crops of these and would pair with themselves. */
export function facePhotos(): { file: string; person: string }[] {
  const older = [
    ...["a1-official-portrait-2012", "a2-speech-podium", "a3-white-house-event", "a4-press-briefing-landscape"].map((f) => ({ file: `person-a-obama/${f}.jpg`, person: "A" })),
    ...["b1-official-portrait-2013", "b2-white-house-event"].map((f) => ({ file: `person-b-biden/${f}.jpg`, person: "B" })),
    ...[1, 2, 3, 4, 5].map((n) => ({ file: `different-people/d${n}-woman.jpg`, person: `d${n}` })),
  ];
  const tsv = fs.readFileSync(`${FACES}/calibration/people.tsv`, "utf8").trim().split("\n").slice(1);
  return [...older, ...tsv.map((line) => line.split("\t")).map(([file, person]) => ({ file: `calibration/${file}`, person }))];
}

/** Writes every pair's cosine similarity (or "error" when a photo gave no descriptor) to bench/results/face-pairs-<model>.tsv. */
export function writePairs(model: string, list: { file: string; person: string }[], embeddings: Map<string, number[]>): string {
  const lines = ["a\tb\tperson_a\tperson_b\tsimilarity"];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [x, y] = [embeddings.get(list[i].file), embeddings.get(list[j].file)];
      const similarity = x && y ? cosineSimilarity(x, y).toFixed(5) : "error";
      lines.push([list[i].file, list[j].file, list[i].person, list[j].person, similarity].join("\t"));
    }
  }
  const out = path.join("bench/results", `face-pairs-${model}.tsv`);
  fs.writeFileSync(out, lines.join("\n") + "\n");
  return out;
}
