import type { Db } from "@/db/client";
import { actingSigner, nextSigner, resolveSigningLink } from "./resolve-signing-link";
import { eq } from "drizzle-orm";
import { processDocuments } from "@/db/schema";
import { SignerFlowError } from "./signer-flow-error";
import { sessionProofProblem } from "@/lib/identity-assurance/session-proof";

export type SigningLinkView = {
  processId: string;
  organizationName: string;
  description: string;
  expireAt: Date;
  linkExpiresAt: Date;
  signOrder: boolean;
  linkKind: "shared" | "per-signer";
  /** The page must ask for the ID number (readChallenges contains signerId) before anything else. */
  identityRequired: boolean;
  /** Known once the link names the signer, or their identity was verified / is not asked. */
  signer: null | {
    id: string;
    alias: string;
    nat: string;
    docIdHint: string;
    identityVerified: boolean;
    namesConfirmed: boolean;
    facialRequired: boolean;
    facialPassed: boolean;
    facialAttemptsLeft: number;
    /** Our extension: the signer identifies at the organization's OIDC provider (signChallenges eid). */
    eidRequired: boolean;
    eidPassed: boolean;
    isNext: boolean;
  };
  documents: { id: string; name: string; pages: number }[];
  signers: { position: number; alias: string; status: string }[];
};

export const MAX_FACIAL_ATTEMPTS = 3;
export const MAX_ID_ATTEMPTS = 5;

/**
 * What a signer page shows on opening a link. Unknown, replaced or expired links and concluded
 * processes are SignerFlowErrors (NOT_FOUND / GONE) with a reason the page can show.
 */
export async function openSigningLink(input: { token: string; signerId?: string; sessionId?: string }, db: Db): Promise<SigningLinkView> {
  const context = await resolveSigningLink({ token: input.token }, db);
  const { link, process, organization, signers } = context;
  let signer: SigningLinkView["signer"] = null;
  if (link.signerId || input.signerId || !context.identityRequired) {
    try {
      const acting = actingSigner(context, input.signerId);
      // a proof counts only in the session that made it: another browser on this link proves again
      const problem = sessionProofProblem(acting, input.sessionId);
      signer = {
        id: acting.id,
        alias: acting.signerAlias,
        nat: acting.nat,
        docIdHint: `••••${acting.docId.slice(-3)}`,
        identityVerified: Boolean(acting.identityVerifiedAt),
        namesConfirmed: Boolean(acting.namesConfirmedAt && acting.pinfo),
        facialRequired: acting.signChallenges.includes("facial"),
        facialPassed: acting.signChallenges.includes("facial") && problem === null,
        facialAttemptsLeft: Math.max(0, MAX_FACIAL_ATTEMPTS - acting.facialAttempts),
        eidRequired: acting.signChallenges.includes("eid"),
        eidPassed: acting.identity?.level === "eid" && problem !== "eid_required",
        isNext: !process.signOrder || nextSigner(signers)?.id === acting.id,
      };
    } catch (error) {
      // a signer still has to type their ID number: the page asks for it
      if (!(error instanceof SignerFlowError && error.reason === "identity_required")) throw error;
    }
  }
  const documents = await db
    .select({ id: processDocuments.id, name: processDocuments.name, pages: processDocuments.pages, index: processDocuments.index })
    .from(processDocuments)
    .where(eq(processDocuments.processId, process.id));
  return {
    processId: process.id,
    organizationName: organization.displayName,
    description: process.description,
    expireAt: process.expireAt,
    linkExpiresAt: link.expiresAt,
    signOrder: process.signOrder,
    linkKind: link.signerId ? "per-signer" : "shared",
    identityRequired: context.identityRequired,
    signer,
    documents: documents.sort((a, b) => a.index - b.index).map(({ id, name, pages }) => ({ id, name, pages })),
    signers: signers.map((s) => ({ position: s.position, alias: s.signerAlias, status: s.status })),
  };
}
