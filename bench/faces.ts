// Face-check benchmark: model load, analyzeFace, matchFaces and assessLiveness on the shared fixtures,
// on the tfjs WASM backend (one thread). Prints figures only; it never asserts on time.
//
// usage: npx tsx bench/faces.ts [rounds]        (default 3 rounds over the fixtures)
//        npx tsx bench/faces.ts --tries [n]     whole facial tries as the face worker runs them (default 5 each)
import fs from "node:fs";
import { cpus } from "node:os";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { assessLiveness } from "@/lib/faces/assess-liveness";
import { FACE_DESCRIPTOR_MODEL, loadFaceEngine } from "@/lib/faces/load-face-engine";
import { cosineSimilarity } from "@/lib/faces/cosine-similarity";
import { DEFAULT_FACE_MATCH_THRESHOLD, matchFaces } from "@/lib/faces/match-faces";
import { makeY4mClip } from "@/lib/faces/testing/make-y4m-clip";
import { readY4mFrames } from "@/lib/faces/testing/read-y4m-frames";
import { fixturePath } from "@/test/fixtures-dir";
import { judgeFacialTry } from "@/lib/signers/judge-facial-try";
import { photographCard } from "@/lib/id-documents/testing/make-specimen-card";
import { posesOf } from "../e2e/fixtures/scripted-camera";
import { withComment } from "./fresh-jpeg-bytes";

const FACES = fixturePath("faces");
const PORTRAITS = [
  "person-a-obama/a1-official-portrait-2012.jpg",
  "person-a-obama/a1-id-portrait-413x531.jpg",
  "person-a-obama/a2-speech-podium.jpg",
  "person-a-obama/a2-selfie-like-480x640.jpg",
  "person-a-obama/a3-white-house-event.jpg",
  "person-a-obama/a3-selfie-like-480x640.jpg",
  "person-a-obama/a4-press-briefing-landscape.jpg",
  "person-a-obama/a4-selfie-like-480x640.jpg",
  "person-b-biden/b1-official-portrait-2013.jpg",
  "person-b-biden/b1-id-portrait-413x531.jpg",
  "person-b-biden/b2-white-house-event.jpg",
  "person-b-biden/b2-selfie-like-480x640.jpg",
  "different-people/d1-woman.jpg",
  "different-people/d2-woman.jpg",
  "different-people/d3-woman.jpg",
  "different-people/d4-woman.jpg",
  "different-people/d5-woman.jpg",
];
const SELFIES = PORTRAITS.filter((file) => file.includes("selfie-like"));
const REFERENCES = PORTRAITS.filter((file) => file.includes("id-portrait") || file.startsWith("different-people"));

const read = (file: string) => new Uint8Array(fs.readFileSync(`${FACES}/${file}`));
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function stats(label: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`${label.padEnd(34)} n=${String(sorted.length).padStart(3)}  median ${at(0.5).toFixed(0).padStart(5)} ms  p95 ${at(0.95).toFixed(0).padStart(5)} ms  max ${sorted[sorted.length - 1].toFixed(0).padStart(5)} ms`);
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

/** CPU of the whole process (every thread: the face models here, tesseract in its own worker thread). */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/**
 * Whole tries as the face worker runs them (lib/signers/judge-facial-try.ts): 7 frames of 640×480
 * (the start pose, 3 of a turn, 3 of a look-up, as the signer page sends them) against a registry
 * photo, and against a photographed specimen ID card (OCR). The first try of a fresh process pays
 * the model load and the kernels' first run unless the engine was warmed (as the ticket does).
 */
async function tries(count: number): Promise<void> {
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${count} tries each, descriptor ${FACE_DESCRIPTOR_MODEL.name}`);
  const poses = posesOf("A");
  const jpeg = (url: string) => new Uint8Array(Buffer.from(url.split(",")[1], "base64"));
  // new bytes for every frame of every try, as a camera sends: the face worker keeps analyses by bytes
  let tryNumber = 0;
  const poseFrames = [poses.neutral, poses["turn-left"], poses["turn-left"], poses["turn-left"], poses["look-up"], poses["look-up"], poses["look-up"]].map(jpeg);
  const freshFrames = () => {
    tryNumber += 1;
    return poseFrames.map((frame, i) => withComment(frame, `try-${tryNumber}-frame-${i}`));
  };
  const registry = read("person-a-obama/a1-id-portrait-413x531.jpg");
  const docId = "42427457";
  const card = photographCard({ portrait: "person-a-obama/a1-id-portrait-413x531.jpg", docNumber: docId, unmarked: true });
  const challenges = ["turn-left", "look-up"] as const;
  const registryTry = () => judgeFacialTry({ frames: freshFrames(), reference: registry, referenceIsIdDocument: false, docId, challenges: [...challenges] });
  const cardTry = () => judgeFacialTry({ frames: freshFrames(), reference: card, referenceIsIdDocument: true, docId, challenges: [...challenges] });
  // the module is absent before the warm-up existed: the same bench then measures the older code
  type Warm = (input: { ocr: boolean; registryPhoto?: Uint8Array }) => Promise<unknown>;
  const { warmFacialCheck } = (await import("@/lib/signers/warm-facial-check").catch(() => ({}))) as { warmFacialCheck?: Warm };
  console.log(warmFacialCheck ? "each try follows its ticket's warm-up (models, OCR, the registry photo's analysis)" : "no warm-up at the ticket in this version: the first try loads the models");
  const measure = async (label: string, run: () => Promise<Awaited<ReturnType<typeof judgeFacialTry>>>, warmth: Parameters<Warm>[0], n: number) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    const ticketCpu: number[] = [];
    let verdict = "";
    for (let i = 0; i < n; i++) {
      const ticketStart = cpuMs();
      // as the ticket does, seconds before the frames arrive (the signer is moving meanwhile)
      await warmFacialCheck?.(warmth);
      ticketCpu.push(cpuMs() - ticketStart);
      const [startCpu, started] = [cpuMs(), performance.now()];
      const judged = await run();
      wall.push(performance.now() - started);
      cpu.push(cpuMs() - startCpu);
      verdict = judged.kind === "judged" ? `${judged.live ? "live" : "not live"}, ${judged.decision} ${judged.similarity}${judged.idDocument ? `, number from ${judged.idDocument.numberSource}` : ""}` : `retry ${judged.reason}`;
    }
    stats(`${label} wall`, wall);
    stats(`${label} CPU`, cpu);
    if (warmFacialCheck) stats(`${label}: its ticket's warm-up CPU`, ticketCpu);
    console.log(`  verdict: ${verdict}`);
  };
  await measure("first registry try", registryTry, { ocr: false, registryPhoto: registry }, 1);
  await measure("first ID-card try", cardTry, { ocr: true }, 1);
  await measure("registry try", registryTry, { ocr: false, registryPhoto: registry }, count);
  await measure("ID-card try", cardTry, { ocr: true }, count);
  console.log(`peak RSS                            ${mb(process.resourceUsage().maxRSS * 1024)}`);
  // tesseract's worker thread would keep the process alive
  process.exit(0);
}

async function main(): Promise<void> {
  if (process.argv[2] === "--tries") return tries(Number(process.argv[3] ?? 5));
  const rounds = Number(process.argv[2] ?? 3);
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${rounds} rounds, descriptor ${FACE_DESCRIPTOR_MODEL.name}`);
  const rssBefore = process.memoryUsage().rss;
  const [loadMs, engine] = await timed(() => loadFaceEngine());
  console.log(`model load (backend + models)       ${loadMs.toFixed(0)} ms (engine says ${engine.loadMs.toFixed(0)} ms); RSS ${mb(rssBefore)} → ${mb(process.memoryUsage().rss)}`);

  const [coldMs] = await timed(() => analyzeFace(read(PORTRAITS[0])));
  console.log(`first analyzeFace (kernel warm-up)  ${coldMs.toFixed(0)} ms`);

  const analyzeTimes: number[] = [];
  const embeddings = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const file of PORTRAITS) {
      const [ms, analysis] = await timed(() => analyzeFace(read(file)));
      analyzeTimes.push(ms);
      embeddings.set(file, analysis.embedding);
    }
  }
  stats("analyzeFace (decode + detect)", analyzeTimes);
  printDistribution(embeddings);

  const matchTimes: number[] = [];
  const matchCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const selfie of SELFIES) {
      for (const reference of REFERENCES) {
        const before = process.cpuUsage();
        matchTimes.push((await matchFaces(read(selfie), read(reference))).durationMs);
        const used = process.cpuUsage(before);
        matchCpu.push((used.user + used.system) / 1000);
      }
    }
  }
  stats("matchFaces (2 analyses + compare)", matchTimes);
  // wall time waits for a busy machine; CPU time is what one try costs whatever the load
  stats("matchFaces CPU (user + system)", matchCpu);
  console.log(`RSS after the matches                ${mb(process.memoryUsage().rss)}`);

  const clip = readY4mFrames(new Uint8Array(fs.readFileSync(await makeY4mClip("face-zoom"))), [0, 2, 4, 6, 8, 10]);
  const livenessTimes: number[] = [];
  for (let round = 0; round < rounds; round++) livenessTimes.push((await timed(() => assessLiveness(clip, { challenges: ["turn-left"] })))[0]);
  stats("assessLiveness (6 frames 640×480)", livenessTimes);

  const memory = engine.human.tf.memory() as { numTensors: number; numBytes: number };
  console.log(`tensors alive after the run         ${memory.numTensors} (${mb(memory.numBytes)}: the loaded models)`);
  console.log(`peak RSS                            ${mb(process.resourceUsage().maxRSS * 1024)}; RSS now ${mb(process.memoryUsage().rss)}`);
}

/** Cosine similarity of every fixture pair, grouped as in docs/faces.md, to re-tune the threshold. */
function printDistribution(embeddings: Map<string, number[]>): void {
  const person = (file: string) => (file.startsWith("different-people") ? file : file.split("/")[0]);
  const shot = (file: string) => file.split("/").pop()?.slice(0, 2);
  const groups: Record<string, number[]> = { "same photo (crop)": [], "same person": [], "different people": [] };
  const files = [...embeddings.keys()];
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      const score = cosineSimilarity(embeddings.get(files[i]) ?? [], embeddings.get(files[j]) ?? []);
      const group = person(files[i]) !== person(files[j]) ? "different people" : shot(files[i]) === shot(files[j]) ? "same photo (crop)" : "same person";
      groups[group].push(score);
    }
  }
  for (const [group, scores] of Object.entries(groups)) {
    const sorted = scores.sort((a, b) => a - b);
    const accepted = sorted.filter((score) => score >= DEFAULT_FACE_MATCH_THRESHOLD).length;
    console.log(`  cosine ${group.padEnd(18)} n=${String(sorted.length).padStart(3)}  min ${sorted[0].toFixed(3)}  median ${sorted[sorted.length >> 1].toFixed(3)}  max ${sorted[sorted.length - 1].toFixed(3)}  ≥ ${DEFAULT_FACE_MATCH_THRESHOLD}: ${accepted}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
