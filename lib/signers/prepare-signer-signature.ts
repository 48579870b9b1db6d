import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments, type SignerPinfo } from "@/db/schema";
import { STAMP_PAGE, stampBox, wholePoints, type StampOrientation } from "@/lib/processes/layout-stamp-grid";
import { filesOf } from "@/lib/processes/plan-stamp-positions";
import { actingSigner, nextSigner, resolveSigningLink, type SignerRow, type SigningContext } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";
import type { SignerIdentity } from "@/lib/identity-assurance/identity-level";
import { sessionProofProblem } from "@/lib/identity-assurance/session-proof";
import type { PadesLevel } from "@/lib/verification/verification-report";
import { storedLevel } from "./derive-process-level";

/** One file the signer signs, and where their stamp goes. Coordinates: PDF points, origin bottom-left of the stamp page. */
export type DocumentToSign = {
  documentId: string;
  index: number;
  name: string;
  /** Current revision: sign THIS, then pass it back as baseBlobKey. */
  blobKey: string;
  sha256: string;
  /** Suggested key for the signed revision. */
  outputBlobKey: string;
  /** Pages of the uploaded file; the stamp page is 0-based index `pages`. */
  pages: number;
  /** True for the first signature on the file: append the blank stamp page in the same revision (signPdf appendPage). */
  appendStampPage: boolean;
  stampPage: { pageIndex: number; width: number; height: number };
  stampRect: { x: number; y: number; width: number; height: number };
  stampSize: number;
  stampOrientation: StampOrientation;
  /** How many process signers sign this file: the signatures of ours it carries once complete. */
  processSignatures: number;
  /** The level recorded for the process signatures already in the file (derive-process-level.ts); undefined before the first. */
  signaturesLevel: PadesLevel | null | undefined;
};

export type SignerSignaturePlan = {
  processId: string;
  organizationId: string;
  organizationName: string;
  description: string;
  signer: { id: string; position: number; nat: string; docId: string; alias: string; signatureType: string; pinfo: SignerPinfo | null; email: string | null; signChallenges: string[]; identity: SignerIdentity | null };
  /** This signature completes the process: finish with validation data + document timestamp (B-LTA). */
  isLastSigner: boolean;
  documents: DocumentToSign[];
};

/**
 * Everything the cryptographic signing step needs, after checking that this signer may sign now:
 * link valid, identity verified (when asked), facial check passed and fresh (when required), and
 * it is their turn (sign order). Read-only: nothing is reserved; completeSignerSignature checks
 * that the documents did not change in between.
 */
export async function prepareSignerSignature(input: { token: string; signerId: string; sessionId?: string }, db: Db): Promise<SignerSignaturePlan> {
  const context = await resolveSigningLink({ token: input.token }, db);
  const signer = assertMaySign(context, input.signerId, input.sessionId);
  const { process, organization, signers } = context;
  const documents = await db.select().from(processDocuments).where(eq(processDocuments.processId, process.id)).orderBy(asc(processDocuments.index));
  const files = new Set(filesOf(signer.stampPositions));
  return {
    processId: process.id,
    organizationId: process.organizationId,
    organizationName: organization.displayName,
    description: process.description,
    signer: {
      id: signer.id,
      position: signer.position,
      nat: signer.nat,
      docId: signer.docId,
      alias: signer.signerAlias,
      signatureType: signer.signatureType,
      pinfo: signer.pinfo,
      email: signer.contactInfo?.type === "email" ? signer.contactInfo.value : null,
      signChallenges: signer.signChallenges,
      identity: signer.identity,
    },
    isLastSigner: signers.every((s) => s.id === signer.id || s.status === "signed"),
    documents: documents
      .filter((d) => files.has(d.index))
      .map((d) => {
        const slot = Object.values(signer.stampPositions[String(d.index)])[0];
        const box = stampBox(slot.size, slot.orientation);
        return {
          documentId: d.id,
          index: d.index,
          name: d.name,
          blobKey: d.currentBlobKey,
          sha256: d.sha256,
          outputBlobKey: `${process.organizationId}/processes/${process.id.replace(":", "-")}/${d.index}-signed-${signer.position}.pdf`,
          pages: d.pages,
          appendStampPage: !d.stampPageAppended,
          stampPage: { pageIndex: d.pages, ...STAMP_PAGE },
          stampRect: { ...wholePoints(slot), ...box },
          stampSize: slot.size,
          stampOrientation: slot.orientation,
          processSignatures: signers.filter((s) => filesOf(s.stampPositions).includes(d.index)).length,
          signaturesLevel: d.stampPageAppended ? storedLevel(d.signaturesLevel) : undefined,
        };
      }),
  };
}

/**
 * The acting signer, if they may sign now in this signer session (the proof must be this session's
 * own, lib/identity-assurance/session-proof.ts); shared by prepare and complete.
 */
export function assertMaySign(context: SigningContext, signerId: string, sessionId: string | undefined): SignerRow {
  const signer = actingSigner(context, signerId);
  const problem = sessionProofProblem(signer, sessionId);
  if (problem) throw new SignerFlowError(problem);
  if (context.process.signOrder && nextSigner(context.signers)?.id !== signer.id) throw new SignerFlowError("not_your_turn");
  // the signature names the person: their confirmed names go into the certificate and the stamp
  if (!signer.namesConfirmedAt || !signer.pinfo) throw new SignerFlowError("names_required");
  // names the proof froze (the reviewer saw them, the provider returned them) are the names that sign
  const frozen = signer.identity?.names;
  if (frozen && (frozen.given_name !== signer.pinfo.given_name || frozen.family_name !== signer.pinfo.family_name)) throw new SignerFlowError("identity_under_review");
  return signer;
}
