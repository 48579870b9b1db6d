import type { Db } from "@/db/client";
import { openSigningLink } from "./open-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import { verifySignerIdentity } from "./verify-signer-identity";

/**
 * Who is signing through this link: the signer whose ID number was typed (identity links; wrong
 * entries count and lock, see verifySignerIdentity), or the signer the link names by itself
 * (readChallenges []). The caller keeps the answer in the signer-session cookie.
 */
export async function startSignerSession(input: { token: string; nat?: string; docId?: string }, db: Db): Promise<{ signerId: string }> {
  if (input.docId !== undefined) {
    const { signerId } = await verifySignerIdentity({ token: input.token, nat: input.nat, docId: input.docId }, db);
    return { signerId };
  }
  const view = await openSigningLink(input.token, db);
  if (view.identityRequired || !view.signer) throw new SignerFlowError("identity_required");
  return { signerId: view.signer.id };
}
