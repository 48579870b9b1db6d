import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { processSingleton } from "@/lib/process-wide/singleton";
import { FACIAL_TICKET_SECONDS, readFacialTicket } from "./facial-challenge";
import { flowOf } from "./nationality-flows";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { FACIAL_FRAMES } from "./schemas";
import { SignerFlowError } from "./signer-flow-error";
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
  const context = await resolveSigningLink({ token: input.token }, deps.db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const ticket = readFacialTicket({ signerId: signer.id, ticket: input.ticket, set: flowOf(signer.nat).challenges }, { secretKey: deps.secretKey });
  if (!ticket || ticket.late) throw new SignerFlowError("ticket_invalid");
  if (!countTicketUpload(`frame:${ticket.nonce}`, FACIAL_FRAMES.max)) throw new SignerFlowError("too_many_frames");
  return deps.facePool.run("analyze-facial-frame", { frame: input.frame }, {}, [], { lane: "public" });
}

/**
 * Uploads sent ahead, counted per kind and ticket nonce (`frame:<nonce>`) until the ticket is past
 * its life; false past `limit`. In this process's memory: on several servers each counts its own.
 */
export function countTicketUpload(key: string, limit: number, now = Date.now()): boolean {
  const counts = processSingleton("firmaviva.faces.uploads-per-ticket", () => new Map<string, { uploads: number; until: number }>());
  for (const [counted, entry] of counts) if (entry.until <= now) counts.delete(counted);
  const entry = counts.get(key) ?? { uploads: 0, until: now + (FACIAL_TICKET_SECONDS + 30) * 1000 };
  if (entry.uploads >= limit) return false;
  entry.uploads += 1;
  counts.set(key, entry);
  return true;
}
