import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments, processes, processLinks, processSigners } from "@/db/schema";
import { hashLinkToken } from "@/lib/processes/link-token";
import { filesOf } from "@/lib/processes/plan-stamp-positions";

export type SignerReceipt = {
  processId: string;
  processStatus: string;
  signedAt: Date;
  /** Signers who still have to sign (0 once the process is complete). */
  pendingSigners: number;
  documents: { id: string; name: string }[];
};

/**
 * What a signer who already signed through this link may still see: the signed copies and whether
 * others must sign. Works after the process concluded (the link itself no longer opens the flow);
 * null when this signer did not sign through this link.
 */
export async function findSignerReceipt(input: { token: string; signerId: string }, db: Db): Promise<SignerReceipt | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.token) || !/^[0-9a-f-]{36}$/.test(input.signerId)) return null;
  const [row] = await db
    .select({ link: processLinks, process: processes })
    .from(processLinks)
    .innerJoin(processes, eq(processLinks.processId, processes.id))
    .where(eq(processLinks.tokenHash, hashLinkToken(input.token)))
    .limit(1);
  if (!row || row.link.revokedAt || (row.link.signerId && row.link.signerId !== input.signerId)) return null;
  const signers = await db.select().from(processSigners).where(eq(processSigners.processId, row.process.id));
  const signer = signers.find((s) => s.id === input.signerId);
  if (!signer || signer.status !== "signed" || !signer.signedAt) return null;
  const files = new Set(filesOf(signer.stampPositions));
  const documents = await db
    .select({ id: processDocuments.id, name: processDocuments.name, index: processDocuments.index })
    .from(processDocuments)
    .where(and(eq(processDocuments.processId, row.process.id)))
    .orderBy(asc(processDocuments.index));
  return {
    processId: row.process.id,
    processStatus: row.process.status,
    signedAt: signer.signedAt,
    pendingSigners: signers.filter((s) => s.status === "pending").length,
    documents: documents.filter((d) => files.has(d.index)).map(({ id, name }) => ({ id, name })),
  };
}
