import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { loadOcrEngine } from "@/lib/id-documents/load-ocr-engine";
import { processSingletonLoad } from "@/lib/process-wide/singleton";
import { decodeImage } from "@/lib/faces/decode-image";
import { loadFaceEngine } from "@/lib/faces/load-face-engine";
import { analyzedReference } from "./analyzed-references";

export type FacialCheckWarmth = { faceMs: number; ocrMs: number };

/**
 * Loads the face models (and, for a signer who may show an ID card, the OCR engine) and runs each
 * once, and analyses the signer's registry photo, so that the try that follows does not pay for them: a fresh face worker's first analysis
 * cost ~1 s more CPU than the next (the WASM kernels' first run, the decoder's JIT) and tesseract's
 * first page ~0.8 s more. Asked for when the signer starts a capture (start-facial-try.ts), seconds
 * before the frames arrive; once per worker, later calls cost nothing.
 */
export async function warmFacialCheck(input: { ocr: boolean; registryPhoto?: Uint8Array }): Promise<FacialCheckWarmth> {
  const started = performance.now();
  await processSingletonLoad("firmaviva.faces.warm", runEveryFaceModel);
  // a real face runs every model and the code around them; its analysis then serves the try
  if (input.registryPhoto) await analyzedReference(input.registryPhoto).catch(() => undefined);
  const faceMs = performance.now() - started;
  if (input.ocr) await processSingletonLoad("firmaviva.ocr.warm", readOnePage);
  return { faceMs, ocrMs: performance.now() - started - faceMs };
}

async function runEveryFaceModel(): Promise<true> {
  const { human } = await loadFaceEngine();
  // a decode through the same path as a frame (the decoder's loops get compiled), then a detection (no face: the detector only)
  const grey = { data: Buffer.alloc(64 * 48 * 4, 128), width: 64, height: 48 };
  await decodeImage(jpeg.encode(grey, 85).data);
  const { tf } = human;
  for (const model of Object.values(human.models.models)) {
    if (!model) continue;
    // every model once, on zeros of its input's shape: its kernels are set up before the first real face
    const shape = (model.inputs[0]?.shape ?? [1, 64, 64, 3]).map((side) => (side > 0 ? side : 1));
    const zeros = tf.zeros(shape, model.inputs[0]?.dtype ?? "float32");
    try {
      tf.dispose(model.execute(zeros));
    } finally {
      tf.dispose(zeros);
    }
  }
  return true;
}

/** A few dark bars on white: tesseract finds a line and runs its recognizer, as on a card. */
async function readOnePage(): Promise<true> {
  const width = 240;
  const height = 60;
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = Buffer.alloc(width * height, 255);
  for (let y = 15; y < 45; y++) for (let x = 20; x < 220; x++) if (x % 24 < 10) png.data[y * width + x] = 0;
  await (await loadOcrEngine()).read(new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false })));
  return true;
}
