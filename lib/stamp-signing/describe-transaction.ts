import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, stampTransactions } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";

export type TransactionDescription = {
  txToken: string;
  organization: string;
  status: "pending" | "done" | "failed";
  signType: string | null;
  signer: { names?: string; lastNames?: string; personIdType?: string; personId?: string; nationality?: string; email?: string };
  signedAt: Date | null;
  sha256: string | null;
  /** The stored output still hashes to the recorded value. */
  integrity: "intact" | "altered" | "unavailable";
};

/** What the public /verify/<tx_token> page shows: who signed what and when, never the document itself. */
export async function describeTransaction(txToken: string, db: Db, blobs: BlobStore): Promise<TransactionDescription | null> {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(txToken)) return null;
  const [row] = await db
    .select({ tx: stampTransactions, organization: organizations.displayName })
    .from(stampTransactions)
    .innerJoin(organizations, eq(stampTransactions.organizationId, organizations.id))
    .where(eq(stampTransactions.txToken, txToken))
    .limit(1);
  if (!row || row.tx.operation !== "signPDF") return null;
  const summary = (row.tx.summary ?? {}) as { signer?: TransactionDescription["signer"] };
  let integrity: TransactionDescription["integrity"] = "unavailable";
  if (row.tx.outputBlobKey && row.tx.outputSha256) {
    const pdf = await blobs.get(row.tx.outputBlobKey);
    if (pdf) integrity = createHash("sha256").update(pdf).digest("hex") === row.tx.outputSha256 ? "intact" : "altered";
  }
  return {
    txToken: row.tx.txToken,
    organization: row.organization,
    status: row.tx.status,
    signType: row.tx.signType,
    signer: summary.signer ?? {},
    signedAt: row.tx.completedAt,
    sha256: row.tx.outputSha256,
    integrity,
  };
}
