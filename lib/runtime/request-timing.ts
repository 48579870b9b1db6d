import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/process-wide/singleton";

/**
 * Per-request stage timings for profiling (`SERVER_TIMING=1` adds a Server-Timing header to API
 * responses; `npm run bench:api` reads it). Stages are exclusive: a stage that runs inside another
 * is subtracted from its parent, so the stages of one request add up to its handler time.
 *
 * When nothing records (the variable unset), `timed` is a plain call: no clock reads, no storage.
 */
export type StageName =
  // the steps of a signing flow (process signature; signPDF uses the same words)
  | "plan"
  | "produce"
  | "complete"
  | "auth"
  | "multipart"
  | "inspect"
  | "image"
  | "stamp-draw"
  | "image-qr"
  | "pdf-update"
  | "certificate"
  | "cms"
  | "tsa"
  | "dss"
  | "level"
  | "database"
  | "blob"
  | "pool"
  | "response";

export type StageTimings = Partial<Record<StageName, number>>;

type Recording = { stages: StageTimings; open: { childMs: number }[] };

// route handlers are bundled apart from instrumentation and the worker, so the store is process-wide
function storage(): AsyncLocalStorage<Recording> {
  return processSingleton("firmaviva.request-timing", () => new AsyncLocalStorage<Recording>());
}

export function requestTimingEnabled(): boolean {
  return process.env.SERVER_TIMING === "1";
}

/** Runs `work` with a fresh recording and returns what it recorded beside its result. */
export async function recordStages<T>(work: () => Promise<T>): Promise<{ result: T; stages: StageTimings; totalMs: number }> {
  const recording: Recording = { stages: {}, open: [] };
  const started = performance.now();
  const result = await storage().run(recording, work);
  return { result, stages: recording.stages, totalMs: performance.now() - started };
}

/** Times `work` as `stage` of the current request, when one is being recorded. */
export async function timed<T>(stage: StageName, work: () => Promise<T> | T): Promise<T> {
  const recording = storage().getStore();
  if (!recording) return work();
  const frame = { childMs: 0 };
  const parent = recording.open.at(-1);
  // each async branch sees its own stack copy, so parallel stages do not charge each other
  const stack = [...recording.open, frame];
  const started = performance.now();
  try {
    return await storage().run({ stages: recording.stages, open: stack }, work);
  } finally {
    const elapsed = performance.now() - started;
    add(recording.stages, stage, elapsed - frame.childMs);
    if (parent) parent.childMs += elapsed;
  }
}

/**
 * Runs `work` outside the current request's recording: work shared by several requests (one
 * statement that writes the rows of all of them) is charged by each to its own wait, not to the
 * request that happened to start it.
 */
export function untimed<T>(work: () => T): T {
  return storage().exit(work);
}

/** `timed` for synchronous work (nothing else runs meanwhile, so the recording's own stack is used). */
export function timedSync<T>(stage: StageName, work: () => T): T {
  const recording = storage().getStore();
  if (!recording) return work();
  const frame = { childMs: 0 };
  const parent = recording.open.at(-1);
  recording.open.push(frame);
  const started = performance.now();
  try {
    return work();
  } finally {
    recording.open.pop();
    const elapsed = performance.now() - started;
    add(recording.stages, stage, elapsed - frame.childMs);
    if (parent) parent.childMs += elapsed;
  }
}

/** Adds stage times measured elsewhere (a worker thread) to the current request, under the open stage. */
export function addStages(stages: StageTimings, elapsedMs: number): void {
  const recording = storage().getStore();
  if (!recording) return;
  for (const [name, ms] of Object.entries(stages)) add(recording.stages, name as StageName, ms);
  const parent = recording.open.at(-1);
  if (parent) parent.childMs += elapsedMs;
}

/** True when the current code runs inside a recording (worker tasks send their stages back then). */
export function isRecording(): boolean {
  return storage().getStore() !== undefined;
}

function add(stages: StageTimings, stage: StageName, ms: number) {
  stages[stage] = (stages[stage] ?? 0) + Math.max(0, ms);
}

/** `multipart;dur=1.20, cms;dur=0.85, total;dur=9.10` (RFC Server-Timing syntax). */
export function serverTimingHeader(stages: StageTimings, totalMs: number): string {
  const parts = Object.entries(stages).map(([name, ms]) => `${name};dur=${(ms as number).toFixed(2)}`);
  parts.push(`total;dur=${totalMs.toFixed(2)}`);
  return parts.join(", ");
}
