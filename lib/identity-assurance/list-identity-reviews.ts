import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { identityReviews, processes, processSigners, type IdentityReviewCard, type ReviewClient } from "@/db/schema";

export type IdentityReviewEntry = {
  id: string;
  processId: string;
  description: string;
  signer: { id: string; nat: string; docId: string; alias: string; confirmedNames: { given: string; family: string } | null; attemptsLeftAfterReject: number };
  card: IdentityReviewCard;
  /** Where the MRZ names differ from the names the signer confirmed (empty when equal or no MRZ). */
  nameDifferences: string[];
  client: ReviewClient | null;
  createdAt: Date;
  signRequestedAt: Date | null;
};

/** The organization's reviews awaiting a decision, oldest first (the queue). */
export async function listIdentityReviews(input: { organizationId: string; limit?: number }, db: Db): Promise<IdentityReviewEntry[]> {
  const rows = await db
    .select({ review: identityReviews, signer: processSigners, description: processes.description })
    .from(identityReviews)
    .innerJoin(processSigners, eq(identityReviews.signerId, processSigners.id))
    .innerJoin(processes, eq(identityReviews.processId, processes.id))
    .where(and(eq(identityReviews.organizationId, input.organizationId), eq(identityReviews.status, "pending")))
    .orderBy(asc(identityReviews.createdAt))
    .limit(Math.min(input.limit ?? 50, 200));
  return rows.map(({ review, signer, description }) => {
    const confirmedNames = signer.pinfo ? { given: signer.pinfo.given_name, family: signer.pinfo.family_name } : null;
    return {
      id: review.id,
      processId: review.processId,
      description,
      signer: { id: signer.id, nat: signer.nat, docId: signer.docId, alias: signer.signerAlias, confirmedNames, attemptsLeftAfterReject: Math.max(0, 3 - signer.facialAttempts) },
      card: review.card,
      nameDifferences: review.card.mrzNames && confirmedNames ? compareNames(review.card.mrzNames, confirmedNames) : [],
      client: review.client,
      createdAt: review.createdAt,
      signRequestedAt: review.signRequestedAt,
    };
  });
}

/**
 * MRZ names against the confirmed names, word by word after folding accents and case (the MRZ has
 * neither): each word of one side missing from the other is a difference the reviewer should see.
 */
export function compareNames(mrz: { lastName: string; firstName: string }, confirmed: { given: string; family: string }): string[] {
  const words = (value: string) => new Set(value.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase().replace(/[^A-Z ]/g, " ").split(/\s+/).filter(Boolean));
  const differences: string[] = [];
  for (const [label, fromMrz, fromSigner] of [["apellidos", mrz.lastName, confirmed.family], ["nombres", mrz.firstName, confirmed.given]] as const) {
    const a = words(fromMrz);
    const b = words(fromSigner);
    const onlyMrz = [...a].filter((w) => !b.has(w));
    const onlySigner = [...b].filter((w) => !a.has(w));
    if (onlyMrz.length || onlySigner.length) differences.push(`${label}: MRZ «${fromMrz}» / confirmados «${fromSigner}»`);
  }
  return differences;
}
