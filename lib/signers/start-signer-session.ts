import type { Db } from "@/db/client";
import { recordProcessEvent } from "@/lib/processes/record-process-event";
import type { SignerClient } from "./describe-signer-client";
import { openSigningLink } from "./open-signing-link";
import { resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import { verifySignerIdentity } from "./verify-signer-identity";

/**
 * Who is signing through this link: the signer whose ID number was typed (identity links; wrong
 * entries count and lock, see verifySignerIdentity), or the signer the link names by itself
 * (readChallenges []). The caller keeps the answer in the signer-session cookie; the device that
 * started the session is part of the signer's evidence.
 */
export async function startSignerSession(
  input: { token: string; nat?: string; docId?: string; client?: SignerClient; /** The session id the cookie will carry for this signer, for the evidence. */ sessionFor?: (signerId: string) => string },
  db: Db,
): Promise<{ signerId: string }> {
  let signerId: string;
  if (input.docId !== undefined) {
    ({ signerId } = await verifySignerIdentity({ token: input.token, nat: input.nat, docId: input.docId }, db));
  } else {
    const view = await openSigningLink({ token: input.token }, db);
    if (view.identityRequired || !view.signer) throw new SignerFlowError("identity_required");
    signerId = view.signer.id;
  }
  if (input.client) {
    const { process } = await resolveSigningLink({ token: input.token }, db);
    const method = input.docId !== undefined ? "id_number" : "link";
    await recordProcessEvent({ processId: process.id, organizationId: process.organizationId, kind: "session_started", signerId, detail: { method, client: input.client, ...(input.sessionFor ? { session: input.sessionFor(signerId) } : {}) } }, db);
  }
  return { signerId };
}
