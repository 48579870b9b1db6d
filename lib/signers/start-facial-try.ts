import type { Db } from "@/db/client";
import { issueFacialTicket, type FacialTicket } from "./facial-challenge";
import { admitFacialTicket } from "./facial-ticket-ledger";
import { flowOf } from "./nationality-flows";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/**
 * The signer pressed "Comenzar": the movements of this try are chosen now, not when the page was
 * loaded, so whoever holds the link learns them only seconds before the frames are due.
 */
export async function startFacialTry(input: { token: string; signerId: string }, deps: { db: Db; secretKey: Uint8Array }): Promise<FacialTicket> {
  const context = await resolveSigningLink({ token: input.token }, deps.db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const { nonce, ...ticket } = issueFacialTicket({ signerId: signer.id, set: flowOf(signer.nat).challenges }, { secretKey: deps.secretKey });
  // at most a few tickets per signer: fishing for a pair of movements that fits a prepared clip is bounded
  await admitFacialTicket({ signerId: signer.id, nonce }, deps.db);
  return ticket;
}
