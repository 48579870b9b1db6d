import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { logInfo } from "@/lib/runtime/log";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { findRegistryPhoto } from "@/lib/registry-photos/find-registry-photo";
import { issueFacialTicket, type FacialTicket } from "./facial-challenge";
import { admitFacialTicket } from "./facial-ticket-ledger";
import { flowOf } from "./nationality-flows";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import type { SignerTasks } from "./signer-tasks";

/**
 * The signer pressed "Comenzar": the movements of this try are chosen now, not when the page was
 * loaded, so whoever holds the link learns them only seconds before the frames are due. The face
 * worker is asked meanwhile to have its models (and OCR, when the reference will be an ID card)
 * loaded and run once, and to analyse the registry photo: the capture takes seconds, and a cold
 * worker's first try cost ~2 s more.
 */
export async function startFacialTry(input: { token: string; signerId: string }, deps: { db: Db; blobs: BlobStore; secretKey: Uint8Array; facePool: TaskRunner<SignerTasks> }): Promise<FacialTicket> {
  const context = await resolveSigningLink({ token: input.token }, deps.db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const flow = flowOf(signer.nat);
  const { nonce, ...ticket } = issueFacialTicket({ signerId: signer.id, set: flow.challenges }, { secretKey: deps.secretKey });
  // at most a few tickets per signer: fishing for a pair of movements that fits a prepared clip is bounded
  await admitFacialTicket({ signerId: signer.id, nonce }, deps.db);
  const organizationId = context.process.organizationId;
  const registry = flow.facialReferences.includes("registry") ? await findRegistryPhoto({ organizationId, nat: signer.nat, docId: signer.docId }, deps) : null;
  const warmth = registry ? { ocr: false, registryPhoto: registry.photo } : { ocr: flow.facialReferences.includes("id-document") };
  // not awaited: the answer must not wait for the models; a warm-up that fails (a full queue) only leaves the try to load them
  deps.facePool.run("warm-facial-check", warmth, {}, [], { owner: organizationId }).catch((error: unknown) => logInfo("face warm-up skipped", { reason: (error as Error).message }));
  return ticket;
}
