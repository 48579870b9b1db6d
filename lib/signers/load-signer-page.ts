import { describeIdentityProvider } from "@/lib/identity-assurance/eid/find-identity-provider";
import { hasRegistryPhoto } from "@/lib/registry-photos/find-registry-photo";
import type { Services } from "@/lib/runtime/services";
import { identityRegistryFor } from "@/lib/identity-registry/identity-registry";
import { proposeSignerNames, type ProposedNames } from "./confirm-signer-names";
import { findSignerReceipt, type SignerReceipt } from "./find-signer-receipt";
import { flowOf } from "./nationality-flows";
import { MAX_ID_ATTEMPTS, openSigningLink, type SigningLinkView } from "./open-signing-link";
import { prepareSignerSignature, type DocumentToSign } from "./prepare-signer-signature";
import { resolveSigningLink } from "./resolve-signing-link";
import { findLatestReview } from "@/lib/identity-assurance/find-identity-review";
import { SignerFlowError, type SignerRefusal } from "./signer-flow-error";

/** One file as the reading step shows it: where this signer's stamp goes, in PDF points (origin bottom-left). */
export type ReadableDocument = Pick<DocumentToSign, "documentId" | "name" | "pages" | "appendStampPage" | "stampPage" | "stampRect">;

type Summary = Pick<SigningLinkView, "organizationName" | "description" | "expireAt" | "signOrder" | "signers"> & { signerAlias: string };

/** The stages the progress bar names; "facial" only for a signer whose challenges include it. */
export type SignerStage = "identify" | "facial" | "eid" | "read";

/** `stages`: this signer's stages, or null when not known yet (a shared link whose signers differ). */
export type SignerPageState =
  | { step: "problem"; reason: SignerRefusal; receipt: SignerReceipt | null }
  | { step: "identify"; summary: Omit<Summary, "signerAlias">; maxAttempts: number; stages: SignerStage[] | null }
  | { step: "auto-identify"; summary: Omit<Summary, "signerAlias">; stages: SignerStage[] | null }
  | { step: "names"; summary: Summary; proposed: ProposedNames; idLabel: string; stages: SignerStage[] }
  | { step: "wait"; summary: Summary; stages: SignerStage[] }
  | { step: "facial"; summary: Summary; attemptsLeft: number; needsIdDocument: boolean; stages: SignerStage[]; /** Why staff rejected the signer's last ID photo. */ reviewRejectedReason?: string }
  | { step: "eid"; summary: Summary; attemptsLeft: number; providerName: string | null; stages: SignerStage[] }
  | { step: "read"; summary: Summary; documents: ReadableDocument[]; isLastSigner: boolean; stages: SignerStage[]; /** The ID photo awaits staff review: signing records the request. */ underReview: boolean };

/** The signer's own stages: the identity challenge (facial or eID) only for a signer who has one. */
function stagesOf(challenges: readonly string[]): SignerStage[] {
  if (challenges.includes("eid")) return ["identify", "eid", "read"];
  return challenges.includes("facial") ? ["identify", "facial", "read"] : ["identify", "read"];
}

/**
 * Which step the signer page shows for this link and signer-session (the signer named by the
 * session cookie, if any): a problem page with its reason, the ID form, the facial check, or the
 * documents to read and sign.
 */
export type LoadSignerPageInput = { token: string; signerId?: string; sessionId?: string };

export async function loadSignerPage(input: LoadSignerPageInput, services: Pick<Services, "db" | "config">): Promise<SignerPageState> {
  const { db } = services;
  try {
    // a shared link locked by wrong ID numbers names no signer, so openSigningLink alone would just ask again
    const link = await resolveSigningLink({ token: input.token }, db);
    if (link.link.lockedAt) throw new SignerFlowError("locked");
    const view = await openSigningLink({ token: input.token, signerId: input.signerId, sessionId: input.sessionId }, db);
    const base = { organizationName: view.organizationName, description: view.description, expireAt: view.expireAt, signOrder: view.signOrder, signers: view.signers };
    if (!input.signerId || !view.signer) {
      // before the signer is known: the stages every signer this link may name has in common
      const candidates = link.signers.filter((s) => (link.link.signerId ? s.id === link.link.signerId : s.status === "pending"));
      const kinds = new Set(candidates.map((s) => stagesOf(s.signChallenges).join(" ")));
      const stages = kinds.size === 1 ? stagesOf(candidates[0].signChallenges) : null;
      return view.identityRequired ? { step: "identify", summary: base, maxAttempts: MAX_ID_ATTEMPTS, stages } : { step: "auto-identify", summary: base, stages };
    }
    const signer = view.signer;
    const summary = { ...base, signerAlias: signer.alias };
    const stages = stagesOf(signer.eidRequired ? ["eid"] : signer.facialRequired ? ["facial"] : []);
    // eID comes before the names: the provider's names fill that step
    if (signer.eidRequired && !signer.eidPassed) {
      const provider = await describeIdentityProvider({ organizationId: (await resolveSigningLink({ token: input.token }, db)).process.organizationId }, db);
      return { step: "eid", summary, stages, attemptsLeft: signer.facialAttemptsLeft, providerName: provider?.displayName ?? null };
    }
    if (!signer.namesConfirmed) {
      const row = (await resolveSigningLink({ token: input.token }, db)).signers.find((s) => s.id === signer.id)!;
      return { step: "names", summary, proposed: await proposeSignerNames(row, identityRegistryFor(services)), idLabel: `${row.nat} ${signer.docIdHint}`, stages };
    }
    if (!signer.isNext) return { step: "wait", summary, stages };
    const review = signer.facialRequired ? await findLatestReview(signer.id, db) : undefined;
    // asked to sign while under review: nothing to do until staff decide
    if (review?.status === "pending" && review.signRequestedAt) throw new SignerFlowError("identity_under_review");
    if (signer.facialRequired && !signer.facialPassed) {
      const context = await resolveSigningLink({ token: input.token }, db);
      const row = context.signers.find((s) => s.id === signer.id)!;
      return {
        step: "facial",
        summary,
        stages,
        attemptsLeft: signer.facialAttemptsLeft,
        // the nat's flow says whether a registry photo can be the reference (a passport's cannot)
        needsIdDocument: !(flowOf(row.nat).facialReferences.includes("registry") && (await hasRegistryPhoto({ organizationId: context.process.organizationId, nat: row.nat, docId: row.docId }, db))),
        // the reason is shown only while the rejected try is still the signer's latest
        ...(review?.status === "rejected" && review.reason && review.checkId === row.signData.facial?.id ? { reviewRejectedReason: review.reason } : {}),
      };
    }
    const plan = await prepareSignerSignature({ token: input.token, signerId: signer.id, sessionId: input.sessionId }, db);
    return {
      step: "read",
      summary,
      stages,
      isLastSigner: plan.isLastSigner,
      underReview: review?.status === "pending",
      documents: plan.documents.map(({ documentId, name, pages, appendStampPage, stampPage, stampRect }) => ({ documentId, name, pages, appendStampPage, stampPage, stampRect })),
    };
  } catch (error) {
    if (!(error instanceof SignerFlowError)) throw error;
    const receipt = input.signerId && ["already_signed", "process_completed"].includes(error.reason) ? await findSignerReceipt({ token: input.token, signerId: input.signerId }, db) : null;
    return { step: "problem", reason: error.reason, receipt };
  }
}
