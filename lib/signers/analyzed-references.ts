import crypto from "node:crypto";
import { analyzeFace, type FaceAnalysis } from "@/lib/faces/analyze-face";
import { processSingleton } from "@/lib/process-wide/singleton";

/** A ticket is valid 90 s: an analysis kept longer would serve no try. */
const KEEP_MS = 120_000;
/** Captures started at once in one face worker; beyond this the oldest analysis is dropped. */
const MAX_KEPT = 16;

type Kept = { analysis: Promise<FaceAnalysis>; until: number };

/**
 * The analysis of a registry photo (a reference: its dominant face), made when the capture started
 * and used by the try that follows, keyed by the photo's SHA-256: the same bytes give the same
 * analysis, so the try skips a second pass. Kept in the face worker's memory for two minutes at
 * most (a descriptor is biometric), never written anywhere. A photo that fails is not kept.
 */
export function analyzedReference(photo: Uint8Array, now = Date.now()): Promise<FaceAnalysis> {
  const kept = processSingleton("firmaviva.faces.references", () => new Map<string, Kept>());
  for (const [key, entry] of kept) if (entry.until <= now) kept.delete(key);
  const key = crypto.createHash("sha256").update(photo).digest("hex");
  const found = kept.get(key);
  if (found) return found.analysis;
  const analysis = analyzeFace(photo, { multipleFaces: "largest" });
  kept.set(key, { analysis, until: now + KEEP_MS });
  analysis.catch(() => kept.delete(key));
  // a Map iterates in insertion order: the first key is the oldest
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return analysis;
}
