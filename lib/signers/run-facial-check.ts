import crypto from "node:crypto";
import type { Services } from "@/lib/runtime/services";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { findRegistryPhoto, type RegistryReference } from "@/lib/registry-photos/find-registry-photo";
import { logInfo } from "@/lib/runtime/log";
import type { SignerClient } from "./describe-signer-client";
import { encryptBiometric } from "@/lib/crypto/encrypt-biometric";
import { readFacialTicket } from "./facial-challenge";
import { flowOf } from "./nationality-flows";
import { MAX_FACIAL_ATTEMPTS } from "./open-signing-link";
import { spendFacialTicket, settleFacialTicket } from "./facial-ticket-ledger";
import type { FacialJudgement, FacialRetryReason } from "./judge-facial-try";
import type { SignerTasks } from "./signer-tasks";
import { recordFacialResult, type FacialEvaluation } from "./record-facial-result";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { metrics } from "@/lib/metrics/metrics";
import { SignerFlowError } from "./signer-flow-error";
import { identityLevelOf, type SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { hasPendingReview } from "@/lib/identity-assurance/find-identity-review";


/** Why a counted try failed, as the signer may learn it: which step to redo, never by how much. */
export type FacialFailure = "not_live" | "no_match";

/**
 * What the browser learns of a try: pass, fail and a human reason. Scores, thresholds and the
 * liveness reason codes stay on the server (audit trail): they would let an attacker tune a fake.
 */
export type FacialCheckOutcome =
  | { status: "retry"; reason: FacialRetryReason; attemptsLeft: number }
  | { status: "passed" | "locked"; attemptsLeft: number }
  /** The face matched the signer's own ID photo: staff must approve before the signature exists. */
  | { status: "under_review"; attemptsLeft: number }
  | { status: "failed"; reason: FacialFailure; attemptsLeft: number };

/**
 * The facial check of one try (`liveness:selfie` + `match:db:selfie` or `match:portrait:selfie`):
 * liveness over the frames with the two movements of the signer's ticket (issued when the capture
 * started, valid 90 s, spent by this upload whatever its outcome: lib/signers/facial-challenge.ts,
 * facial-ticket-ledger.ts), then the first frame
 * (the signer looking at the camera) against the organization's registry photo for the signer's
 * nat + doc_id, or, without one, against the portrait cropped from the ID document photo sent along,
 * once that photo proved to be an identity card bearing the signer's doc_id (OCR of the MRZ or the
 * printed number). The selfie (and ID photo) are stored encrypted; the result is recorded (3 tries,
 * then locked).
 */
/** What a facial try needs: the database, the encrypted evidence store, the settings and the face pool. */
export type FacialCheckDeps = Pick<Services, "db" | "blobs" | "config" | "pools">;

export async function runFacialCheck(input: FacialTryInput, services: FacialCheckDeps): Promise<FacialCheckOutcome> {
  const outcome = await judgeAndRecordFacialTry(input, services);
  metrics().facialTries.inc({ outcome: outcome.status });
  return outcome;
}

export type FacialTryInput = { token: string; signerId: string; /** The signer session making the try: its pass is valid there only. */ sessionId: string; ticket: string; frames: Uint8Array[]; idDocument?: Uint8Array; client?: SignerClient };

async function judgeAndRecordFacialTry(input: FacialTryInput, services: FacialCheckDeps): Promise<FacialCheckOutcome> {
  const started = performance.now();
  const { db, blobs, config } = services;
  const facePool: TaskRunner<SignerTasks> = services.pools.face;
  const context = await resolveSigningLink({ token: input.token }, db);
  const signer = actingSigner(context, input.signerId);
  if (!signer.signChallenges.includes("facial")) throw new SignerFlowError("facial_not_required");
  const organizationId = context.process.organizationId;
  // a try awaiting review is decided by staff; another try meanwhile would only add to their queue
  if (await hasPendingReview(signer.id, db)) throw new SignerFlowError("identity_under_review");
  const flow = flowOf(signer.nat);
  const ticket = readFacialTicket({ signerId: signer.id, ticket: input.ticket, set: flow.challenges }, { secretKey: config.secretKey });
  if (!ticket) throw new SignerFlowError("ticket_invalid");
  // the ticket is spent and the try counted before the (slow) face analysis, so parallel uploads
  // cannot exceed three tries nor use one ticket twice
  const attempt = await spendFacialTicket({ signerId: signer.id, nonce: ticket.nonce }, db);
  const retry = async (reason: FacialRetryReason): Promise<FacialCheckOutcome> => {
    // an unusable picture (or a late ticket) is not a try: it is given back, and counts as a retry
    await settleFacialTicket({ signerId: signer.id, nonce: ticket.nonce, outcome: "retry" }, db);
    return { status: "retry", reason, attemptsLeft: MAX_FACIAL_ATTEMPTS - attempt + 1 };
  };
  if (ticket.late) return retry("challenge_expired");
  const challenges = ticket.challenges;

  // the nat's flow says which references count (a passport has no registry photo)
  let judged: FacialJudgement;
  let registry: RegistryReference | null;
  try {
    registry = flow.facialReferences.includes("registry") ? await findRegistryPhoto({ organizationId, nat: signer.nat, docId: signer.docId }, { db, blobs, secretKey: config.secretKey }) : null;
    const reference = registry?.photo ?? (flow.facialReferences.includes("id-document") ? input.idDocument : undefined);
    if (!reference) return retry("id_document_required");
    // the face models run in their own worker, where each organization has its own share of the queue
    judged = await facePool.run("judge-facial-try", { frames: input.frames, reference, referenceIsIdDocument: !registry, docId: signer.docId, challenges }, {}, [], { owner: organizationId });
  } catch (error) {
    // nothing was judged (a full queue, a worker that died): the try is given back
    await settleFacialTicket({ signerId: signer.id, nonce: ticket.nonce, outcome: "retry" }, db);
    throw error;
  }
  if (judged.kind === "retry") return retry(judged.reason);
  await settleFacialTicket({ signerId: signer.id, nonce: ticket.nonce, outcome: "counted" }, db);
  const reference = registry?.photo ?? input.idDocument!;
  const liveness = { live: judged.live, reasons: judged.reasons };
  const match = { similarity: judged.similarity, threshold: judged.threshold, decision: judged.decision };
  const passed = liveness.live && match.decision === "match";

  // each try's evidence under its own id: parallel tries never overwrite each other's selfie
  const prefix = `${organizationId}/selfies/${context.process.id.replace(":", "-")}/${signer.id}-${attempt}-${crypto.randomUUID()}`;
  await blobs.put(`${prefix}.jpg.enc`, encryptBiometric(input.frames[0], config.secretKey, organizationId), "application/octet-stream");
  if (!registry) await blobs.put(`${prefix}-id-document.enc`, encryptBiometric(reference, config.secretKey, organizationId), "application/octet-stream");
  if (judged.portrait) await blobs.put(`${prefix}-portrait.enc`, encryptBiometric(judged.portrait, config.secretKey, organizationId), "application/octet-stream");
  const durationMs = Math.round(performance.now() - started);
  const evaluation: FacialEvaluation = {
    reference: registry ? "registry" : "id-document",
    ...(judged.idDocument ? { idDocument: judged.idDocument } : {}),
    challenges,
    live: liveness.live,
    livenessReasons: liveness.reasons,
    similarity: match.similarity,
    threshold: match.threshold,
    decision: match.decision,
    durationMs,
  };
  // the level this try proves; a passed match on the signer's own card proves nothing until staff approve it
  // an expiry nobody could establish is for a reviewer to judge, even where review is switched off
  const reviewRequired = context.organization.identityReviewRequired || Boolean(judged.idDocument?.expiryProblem);
  const level = registry
    ? identityLevelOf({ method: "registry-photo", facialPassed: passed })
    : identityLevelOf({ method: "id-document", facialPassed: passed, reviewApproved: false, reviewRequired });
  // the level names who supplied the reference it rests on, and belongs to this session's try
  const referenceBy = registry?.suppliedBy ? { referenceBy: registry.suppliedBy } : {};
  const identity: SignerIdentity | undefined = level ? { level, method: registry ? "registry-photo" : "id-document", at: new Date().toISOString(), session: input.sessionId, ...referenceBy } : undefined;
  const review =
    passed && !level && judged.idDocument
      ? {
          linkId: context.link.id,
          sessionId: input.sessionId,
          cardBlobKey: `${prefix}-id-document.enc`,
          portraitBlobKey: `${prefix}-portrait.enc`,
          card: judged.idDocument,
        }
      : undefined;
  const recorded = await recordFacialResult({ token: input.token, signerId: signer.id, attempt, result: passed, score: match.similarity, selfieBlobKey: `${prefix}.jpg.enc`, sessionId: input.sessionId, evaluation, client: input.client, identity, review, claimedWith: context }, db);
  logInfo("facial check", { processId: context.process.id, signerId: signer.id, attempt, passed, live: liveness.live, similarity: match.similarity, durationMs, identityLevel: level });
  if (review) return { status: "under_review", attemptsLeft: recorded.attemptsLeft };
  if (passed) return { status: "passed", attemptsLeft: recorded.attemptsLeft };
  if (recorded.locked) return { status: "locked", attemptsLeft: recorded.attemptsLeft };
  return { status: "failed", reason: liveness.live ? "no_match" : "not_live", attemptsLeft: recorded.attemptsLeft };
}
