import crypto from "node:crypto";
import type { FaceAnalysis } from "@/lib/faces/analyze-face";
import { processSingleton } from "@/lib/process-wide/singleton";

/** A ticket is valid 90 s: an analysis kept longer would serve no try. */
const KEEP_MS = 120_000;
/** Captures going on at once in one face worker (a reference and up to 8 frames each); beyond this the oldest analysis is dropped. */
const MAX_KEPT = 96;

type Kept = { analysis: Promise<unknown>; until: number };
/** What the picture is for; an ID card's verdict depends on the number it must bear too. */
type KeptPurpose = "reference" | "frame" | `card:${string}`;

/**
 * The face worker's analyses of pictures a try is about to use (a face's analysis, an ID card's
 * verdict), keyed by what they are for and the
 * picture's SHA-256: the same bytes give the same analysis (the models keep no state between
 * images), so the try that follows reuses it instead of a second pass, whoever asked first.
 * Kept in the worker's memory for two minutes at most (a descriptor is biometric), never written
 * anywhere. A failure is kept only when `keepFailure` says it is a verdict on the picture.
 */
export function keptFaceAnalysis<T = FaceAnalysis>(
  input: { purpose: KeptPurpose; picture: Uint8Array; now?: number },
  analyze: (picture: Uint8Array) => Promise<T>,
  keepFailure: (error: unknown) => boolean,
): Promise<T> {
  const now = input.now ?? Date.now();
  const kept = processSingleton("firmaviva.faces.kept-analyses", () => new Map<string, Kept>());
  for (const [key, entry] of kept) if (entry.until <= now) kept.delete(key);
  const key = `${input.purpose}:${crypto.createHash("sha256").update(input.picture).digest("hex")}`;
  const found = kept.get(key);
  // the same key was only ever stored by a caller of the same purpose, hence of the same result type
  if (found) return found.analysis as Promise<T>;
  const analysis = analyze(input.picture);
  kept.set(key, { analysis, until: now + KEEP_MS });
  analysis.catch((error: unknown) => {
    if (!keepFailure(error) && kept.get(key)?.analysis === analysis) kept.delete(key);
  });
  // a Map iterates in insertion order: the first key is the oldest
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return analysis;
}
