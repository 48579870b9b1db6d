import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stampTransactions } from "@/db/schema";

export type StampTransactionRow = {
  txToken: string;
  createdAt: Date;
  signType: string | null;
  status: "pending" | "done" | "failed";
  /** What our verifier measured on the output; null while pending, on failure or when it could not be measured. */
  padesLevel: string | null;
  signerName: string | null;
};

/** The organization's most recent stamp-API signatures (signPDF, sync and async), newest first, for the dashboard. */
export async function listStampTransactions(input: { organizationId: string; limit?: number }, db: Db): Promise<StampTransactionRow[]> {
  const rows = await db
    .select({
      txToken: stampTransactions.txToken,
      createdAt: stampTransactions.createdAt,
      signType: stampTransactions.signType,
      status: stampTransactions.status,
      padesLevel: stampTransactions.padesLevel,
      summary: stampTransactions.summary,
    })
    .from(stampTransactions)
    .where(and(eq(stampTransactions.organizationId, input.organizationId), eq(stampTransactions.operation, "signPDF")))
    .orderBy(desc(stampTransactions.createdAt), desc(stampTransactions.id))
    .limit(Math.min(Math.max(input.limit ?? 20, 1), 100));
  return rows.map(({ summary, ...row }) => {
    const signer = (summary as { signer?: { names?: string; lastNames?: string } } | null)?.signer;
    const name = [signer?.names, signer?.lastNames].filter(Boolean).join(" ");
    return { ...row, signerName: name || null };
  });
}
