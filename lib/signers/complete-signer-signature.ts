import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments, processSigners } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { concludeProcess } from "@/lib/processes/conclude-process";
import { findActiveLinks } from "@/lib/processes/issue-signing-links";
import { filesOf } from "@/lib/processes/plan-stamp-positions";
import { queueSignerNotifications } from "@/lib/processes/queue-signer-notifications";
import { recordProcessEvent, type ProcessEvent } from "@/lib/processes/record-process-event";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SignerClient } from "./describe-signer-client";
import { assertMaySign } from "./prepare-signer-signature";
import { readingTimesOf, type PagesShown } from "./record-pages-shown";
import { resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import type { PadesLevel } from "@/lib/verification/verification-report";
import type { SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { signatureIdentityOf } from "@/lib/identity-assurance/signature-identity";

const notTheSignersDocuments = () => new AppError("VALIDATION", "signedDocuments debe traer exactamente los documentos del firmante", "signedDocuments");

/** A file the signer signs whose revision moved on is a conflict; any other file is not theirs to give. */
async function whyNotUpdated(documentId: string, processId: string, expected: number[], tx: Db): Promise<Error> {
  const [document] = await tx.select({ index: processDocuments.index }).from(processDocuments).where(and(eq(processDocuments.id, documentId), eq(processDocuments.processId, processId)));
  return document && expected.includes(document.index) ? new SignerFlowError("document_changed") : notTheSignersDocuments();
}

/** sign_data.identity on the wire: {level, method, reviewedBy?, at} (plus the eID provider, and who supplied a registry reference). */
function pickIdentity(identity: SignerIdentity): SignerIdentity {
  return {
    level: identity.level,
    method: identity.method,
    ...(identity.reviewedBy ? { reviewedBy: identity.reviewedBy } : {}),
    at: identity.at,
    ...(identity.provider ? { provider: identity.provider } : {}),
    ...(identity.referenceBy ? { referenceBy: identity.referenceBy } : {}),
  };
}

export type SignedDocument = {
  documentId: string;
  /** The new revision, already stored in the blob store. */
  blobKey: string;
  sha256: string;
  /** The blobKey that prepareSignerSignature returned for this document (optimistic concurrency). */
  baseBlobKey: string;
  /** The level derived for the process signatures in the new revision, before any document time-stamp. */
  signaturesLevel: PadesLevel | null;
};

/**
 * Records a signer's signature once the signing step stored the signed revisions: every document
 * the signer signs must be given, each still at the revision it was signed from (else CONFLICT
 * `document_changed`, nothing written). The last signature marks the process `signed` and queues
 * the callback; with sign order, the next signer is notified. One transaction.
 */
export async function completeSignerSignature(
  input: { token: string; signerId: string; /** The signer session that signs: the one that proved the identity. */ sessionId?: string; signedDocuments: SignedDocument[]; signAction?: string; client?: SignerClient; padesLevel?: PadesLevel | null; /** The identity the certificate was issued for. */ identity?: SignerIdentity; /** SHA-256 (hex) of that certificate: /api/verify finds this record by it. */ certificateSha256?: string; /** The reading record the signature was made on (assertEveryPageShown's); read here when not given. */ pagesShown?: PagesShown[] },
  db: Db,
): Promise<{ processStatus: "pending" | "signed"; completed: boolean }> {
  return db.transaction(async (tx) => {
    const context = await resolveSigningLink({ token: input.token, lock: true }, tx);
    const signer = assertMaySign(context, input.signerId, input.sessionId);
    const { process, signers } = context;
    // the level recorded is the one proven now (a review rejected meanwhile leaves none), as the certificate says
    const identity = signatureIdentityOf(signer);
    if (!identity || (input.identity && input.identity.level !== identity.level)) throw new SignerFlowError(signer.signChallenges.includes("eid") ? "eid_required" : signer.signChallenges.includes("facial") ? "identity_under_review" : "facial_required");
    const expected = filesOf(signer.stampPositions);
    const given = new Map(input.signedDocuments.map((d) => [d.documentId, d]));
    if (given.size !== input.signedDocuments.length || given.size !== expected.length) throw notTheSignersDocuments();
    // each update moves one of this signer's files (index unique per process) from the revision it was
    // signed from: as many distinct files as the signer has, so exactly theirs, without reading them first
    const mine: { id: string }[] = [];
    for (const signed of input.signedDocuments) {
      const [updated] = await tx
        .update(processDocuments)
        .set({ currentBlobKey: signed.blobKey, sha256: signed.sha256, stampPageAppended: true, signaturesLevel: signed.signaturesLevel, updatedAt: new Date() })
        .where(and(eq(processDocuments.id, signed.documentId), eq(processDocuments.processId, process.id), inArray(processDocuments.index, expected), eq(processDocuments.currentBlobKey, signed.baseBlobKey)))
        .returning({ id: processDocuments.id });
      if (!updated) throw await whyNotUpdated(signed.documentId, process.id, expected, tx);
      mine.push(updated);
    }
    const now = new Date();
    const signChallenges = signer.signChallenges.includes("signAction") ? signer.signChallenges : [...signer.signChallenges, "signAction"];
    await tx
      .update(processSigners)
      .set({
        status: "signed",
        signedAt: now,
        signChallenges,
        ...(input.certificateSha256 ? { certificateSha256: input.certificateSha256 } : {}),
        signData: { ...signer.signData, signAction: input.signAction ?? "sign", date: Math.floor(now.getTime() / 1000), result: "signed", identity: pickIdentity(input.identity ?? identity) },
      })
      .where(eq(processSigners.id, signer.id));
    // the evidence of the signature: the device that signed and when each file was shown to the signer
    const pagesShown = input.pagesShown ?? (await readingTimesOf(signer.id, tx));
    // the session that proved the identity and the one that signs (the same, or assertMaySign refused)
    const sessions = { provedIn: identity.session ?? signer.signData.facial?.session ?? null, signedIn: input.sessionId ?? null };
    const signedEvent: ProcessEvent = { processId: process.id, organizationId: process.organizationId, kind: "signed", signerId: signer.id, detail: { documents: mine.map((d) => d.id), client: input.client, pagesShown, identity: pickIdentity(input.identity ?? identity), sessions } };
    await recordAuditEvent(
      {
        organizationId: process.organizationId,
        actor: `${signer.nat}:${signer.docId}`,
        action: "signer.signed",
        target: process.id,
        detail: { signerId: signer.id, documents: mine.map((d) => ({ id: d.id, sha256: given.get(d.id)!.sha256 })), client: input.client, pagesShown, identity: pickIdentity(input.identity ?? identity), sessions },
      },
      tx,
    );
    const remaining = signers.filter((s) => s.id !== signer.id && s.status === "pending");
    if (remaining.length === 0) {
      // the last signature and the completion it makes are one insert into the timeline
      await concludeProcess({ process, status: "signed", signerId: signer.id, padesLevel: input.padesLevel ?? null, precededBy: [signedEvent] }, tx);
      return { processStatus: "signed" as const, completed: true };
    }
    await recordProcessEvent(signedEvent, tx);
    if (process.signOrder) {
      const links = await findActiveLinks(process.id, tx);
      await queueSignerNotifications(
        { processId: process.id, organizationId: process.organizationId, signOrder: true, signers: remaining, links },
        tx,
      );
    }
    return { processStatus: "pending" as const, completed: false };
  });
}
