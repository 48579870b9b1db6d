import { createRequire } from "node:module";
import path from "node:path";
import type Tesseract from "tesseract.js";
import { processSingletonLoad } from "@/lib/process-wide/singleton";

/** Text read from one image, with each line's box (pixels of that image). */
export type OcrLine = { text: string; confidence: number; box: { x0: number; y0: number; x1: number; y1: number } };
export type OcrResult = { text: string; lines: OcrLine[] };

export interface OcrEngine {
  /** Reads a PNG/JPEG; calls are queued one at a time (one tesseract worker). */
  read(image: Uint8Array): Promise<OcrResult>;
  loadMs: number;
}

/**
 * One tesseract.js worker per process, lazily, with the English LSTM data from
 * `@tesseract.js-data/eng` and the WASM core from `tesseract.js-core` in node_modules: nothing is
 * fetched and nothing is cached to disk. A failed load is forgotten so the next call retries.
 * Meant for the face worker thread (the face pool of lib/server/worker-pools.ts): OCR takes seconds of CPU.
 */
export function loadOcrEngine(): Promise<OcrEngine> {
  return processSingletonLoad("firmaviva.ocr.engine", createEngine);
}

async function createEngine(): Promise<OcrEngine> {
  const started = performance.now();
  // resolved at run time from the app root, so bundlers leave the package and its WASM alone
  const requireFromApp = createRequire(path.join(process.cwd(), "package.json"));
  const tesseract = requireFromApp("tesseract.js") as typeof Tesseract;
  const engData = requireFromApp("@tesseract.js-data/eng") as { langPath: string; gzip: boolean };
  const tesseractDir = path.dirname(requireFromApp.resolve("tesseract.js/package.json"));
  const coreDir = path.dirname(requireFromApp.resolve("tesseract.js-core/package.json"));
  const worker = await tesseract.createWorker("eng", 1 /* OEM.LSTM_ONLY */, {
    langPath: engData.langPath,
    gzip: engData.gzip,
    corePath: coreDir,
    workerPath: path.join(tesseractDir, "src", "worker-script", "node", "index.js"),
    cacheMethod: "none",
    logger: () => undefined,
    errorHandler: () => undefined,
  });
  let queue: Promise<unknown> = Promise.resolve();
  const read = (image: Uint8Array): Promise<OcrResult> => {
    const run = queue.then(async () => {
      const { data } = await worker.recognize(Buffer.from(image), {}, { text: true, blocks: true });
      const lines: OcrLine[] = [];
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) lines.push({ text: line.text.trim(), confidence: line.confidence, box: line.bbox });
        }
      }
      return { text: data.text, lines };
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return { read, loadMs: performance.now() - started };
}
