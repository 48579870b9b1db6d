import { createHmac } from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";
import type { LivenessChallenge } from "@/lib/faces/assess-liveness";

const TURNS: LivenessChallenge[] = ["turn-left", "turn-right"];

/**
 * The head movement asked for in one facial attempt: a turn direction chosen by the server, fixed
 * per signer and attempt number (so the page and the check agree without storing it) and not
 * guessable without SECRET_KEY, so a clip prepared in advance fails half the time.
 */
export function facialChallengeFor(secretKey: Uint8Array, signerId: string, attempt: number): LivenessChallenge {
  const digest = createHmac("sha256", deriveKey(secretKey, "facial-challenge")).update(`${signerId}:${attempt}`).digest();
  return TURNS[digest[0] % TURNS.length];
}
