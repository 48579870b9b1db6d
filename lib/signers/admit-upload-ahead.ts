import type { Db } from "@/db/client";
import { processSingleton } from "@/lib/process-wide/singleton";
import { FACIAL_TICKET_SECONDS, readFacialTicket } from "./facial-challenge";
import { flowOf, type NationalityFlow } from "./nationality-flows";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/** What the page sends ahead of a try: a frame as it is taken, the ID card when the capture starts. */
export type UploadAhead = "frame" | "id-document";

/**
 * Admits one picture sent ahead of a facial try (facial/frame, facial/id-document): the link's
 * signer must take the facial check, its ticket must be this signer's and still live, and the
 * ticket may send at most `limit` of this kind. Returns the signer, as the link resolves them.
 */
export async function admitUploadAhead(
  input: { token: string; signerId: string; ticket: string; kind: UploadAhead; limit: number; flowAllows?: (flow: NationalityFlow) => boolean },
  deps: { db: Db; secretKey: Uint8Array },
) {
  const context = await resolveSigningLink({ token: input.token }, deps.db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const flow = flowOf(signer.nat);
  if (input.flowAllows && !input.flowAllows(flow)) throw new SignerFlowError("facial_not_required");
  const ticket = readFacialTicket({ signerId: signer.id, ticket: input.ticket, set: flow.challenges }, { secretKey: deps.secretKey });
  if (!ticket || ticket.late) throw new SignerFlowError("ticket_invalid");
  if (!countTicketUpload(`${input.kind}:${ticket.nonce}`, input.limit)) throw new SignerFlowError("too_many_frames");
  return signer;
}

/**
 * Uploads sent ahead, counted per kind and ticket nonce until the ticket is past its life; false
 * past `limit`. Counted synchronously, so parallel requests never pass it. In this process's
 * memory: on several servers each counts its own.
 */
function countTicketUpload(key: string, limit: number, now = Date.now()): boolean {
  const counts = processSingleton("firmaviva.faces.uploads-per-ticket", () => new Map<string, { uploads: number; until: number }>());
  for (const [counted, entry] of counts) if (entry.until <= now) counts.delete(counted);
  const entry = counts.get(key) ?? { uploads: 0, until: now + (FACIAL_TICKET_SECONDS + 30) * 1000 };
  if (entry.uploads >= limit) return false;
  entry.uploads += 1;
  counts.set(key, entry);
  return true;
}
