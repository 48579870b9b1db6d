import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { admitUploadAhead } from "./admit-upload-ahead";
import { FACIAL_FRAMES } from "./schemas";
import type { SignerTasks } from "./signer-tasks";

/**
 * One frame of a capture under way, sent by the page as soon as it was taken: the face worker
 * analyses it while the signer makes the next movement, and keeps the analysis (by the frame's
 * bytes, analyzed-frames.ts) for the try's upload, which then waits for the last frame only. It
 * decides nothing: the try judges exactly the frames it uploads, analysed here or not.
 *
 * Bounded like the try: a live ticket of this signer, at most FACIAL_FRAMES.max frames per ticket
 * in this process, and the face pool's own lane for these (its public lane, a queue of its own),
 * so frames sent ahead never take a place a try needs; when that lane is full the frame is refused
 * (BUSY) and the try analyses it itself.
 */
export async function analyzeCapturedFrame(
  input: { token: string; signerId: string; ticket: string; frame: Uint8Array },
  deps: { db: Db; secretKey: Uint8Array; facePool: TaskRunner<SignerTasks> },
): Promise<{ face: boolean }> {
  await admitUploadAhead({ token: input.token, signerId: input.signerId, ticket: input.ticket, kind: "frame", limit: FACIAL_FRAMES.max }, deps);
  return deps.facePool.run("analyze-facial-frame", { frame: input.frame }, {}, [], { lane: "public" });
}
