import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, stampTransactions } from "@/db/schema";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type TransactionDescription = {
  txToken: string;
  organization: string;
  status: "pending" | "done" | "failed";
  signType: string | null;
  signer: { names?: string; lastNames?: string; personIdType?: string; personId?: string; nationality?: string; email?: string };
  signedAt: Date | null;
  /** Recorded when the output was stored: the fingerprint a holder of a copy compares with. */
  sha256: string | null;
  /** The PAdES level our verifier measured on the output at signing time. */
  padesLevel: PadesLevel | null;
};

/**
 * What the public /verify/<tx_token>?org=<domain> page shows: who signed what and when, and the
 * verdict recorded at signing; it never reads the document, so an anonymous GET costs one query.
 * A tx_token is unique per organization: `org` names it. Links printed before that (no `org`)
 * name the earliest transaction with the token, which is the one they were printed for; a later
 * organization reusing the token cannot take those links over.
 */
export async function describeTransaction(input: { txToken: string; organizationDomain?: string }, db: Db): Promise<TransactionDescription | null> {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(input.txToken)) return null;
  if (input.organizationDomain !== undefined && !/^[a-z0-9.-]{1,253}$/.test(input.organizationDomain)) return null;
  const [row] = await db
    .select({ tx: stampTransactions, organization: organizations.displayName })
    .from(stampTransactions)
    .innerJoin(organizations, eq(stampTransactions.organizationId, organizations.id))
    .where(and(
      eq(stampTransactions.txToken, input.txToken),
      eq(stampTransactions.operation, "signPDF"),
      input.organizationDomain !== undefined ? eq(organizations.domain, input.organizationDomain) : undefined,
    ))
    .orderBy(asc(stampTransactions.createdAt), asc(stampTransactions.id))
    .limit(1);
  if (!row) return null;
  const summary = (row.tx.summary ?? {}) as { signer?: TransactionDescription["signer"] };
  return {
    txToken: row.tx.txToken,
    organization: row.organization,
    status: row.tx.status,
    signType: row.tx.signType,
    signer: summary.signer ?? {},
    signedAt: row.tx.completedAt,
    sha256: row.tx.outputSha256,
    padesLevel: (row.tx.padesLevel as PadesLevel | null) ?? null,
  };
}
