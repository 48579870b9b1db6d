// @vladmandic/face-api's recognition net (dlib ResNet-34, 128-d) over the same face fixtures as
// bench/face-model-embeddings.ts, for bench/face-model-compare.ts: SSD MobileNet detection, 68-point
// landmarks, aligned crop, descriptor; the largest face of each photo. face-api is not a dependency
// of the app: install it somewhere and point FACE_API_DIR there (it brings its own tfjs).
//
// usage: FACE_PHOTOS_DIR=<faces> FACE_API_DIR=<dir> npx tsx bench/face-api-embeddings.ts
//        (after: npm install --prefix <dir> @vladmandic/face-api @tensorflow/tfjs @tensorflow/tfjs-backend-wasm)
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { decodeImage } from "@/lib/faces/decode-image";
import { FACES, facePhotos, writePairs } from "./face-fixture-photos";

type Tensor3D = { dispose(): void };
interface FaceApi {
  tf: { setBackend(name: string): Promise<boolean>; ready(): Promise<void>; tensor3d(data: Uint8Array, shape: [number, number, number], dtype: "int32"): Tensor3D };
  nets: Record<"ssdMobilenetv1" | "faceLandmark68Net" | "faceRecognitionNet", { loadFromDisk(dir: string): Promise<void> }>;
  SsdMobilenetv1Options: new (options: { minConfidence: number }) => unknown;
  detectAllFaces(input: Tensor3D, options: unknown): { withFaceLandmarks(): { withFaceDescriptors(): Promise<{ detection: { box: { width: number; height: number } }; descriptor: Float32Array }[]> } };
}

async function main(): Promise<void> {
  const dir = process.env.FACE_API_DIR;
  if (!dir) throw new Error("set FACE_API_DIR to a folder where @vladmandic/face-api is installed");
  const requireThere = createRequire(path.join(dir, "package.json"));
  const faceapiDist = path.dirname(requireThere.resolve("@vladmandic/face-api"));
  const rssStart = process.memoryUsage().rss;
  const faceapi = requireThere(path.join(faceapiDist, "face-api.node-wasm.js")) as FaceApi;
  await faceapi.tf.setBackend("wasm");
  await faceapi.tf.ready();
  const models = path.join(faceapiDist, "..", "model");
  for (const net of ["ssdMobilenetv1", "faceLandmark68Net", "faceRecognitionNet"] as const) await faceapi.nets[net].loadFromDisk(models);
  console.log(`face-api: RSS ${mb(rssStart)} → ${mb(process.memoryUsage().rss)} after loading`);
  const list = facePhotos();
  const embeddings = new Map<string, number[]>();
  const cpu: number[] = [];
  for (const { file } of list) {
    const cpuBefore = process.cpuUsage();
    const image = await decodeImage(new Uint8Array(fs.readFileSync(`${FACES}/${file}`)));
    const tensor = faceapi.tf.tensor3d(image.data, [image.height, image.width, 3], "int32");
    const faces = await faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })).withFaceLandmarks().withFaceDescriptors();
    tensor.dispose();
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    const largest = faces.sort((a, b) => b.detection.box.width * b.detection.box.height - a.detection.box.width * a.detection.box.height)[0];
    if (largest) embeddings.set(file, Array.from(largest.descriptor));
    else console.log(`  ${file}: no face`);
  }
  const out = writePairs("face-api", list, embeddings);
  const median = [...cpu].sort((a, b) => a - b)[cpu.length >> 1];
  console.log(`face-api: ${embeddings.size}/${list.length} photos described; per photo (decode + detect + landmarks + descriptor) CPU median ${median.toFixed(0)} ms`);
  console.log(`face-api: peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}; pairs written to ${out}`);
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
