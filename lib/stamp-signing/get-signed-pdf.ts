import { and, eq, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stampTransactions } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import type { PadesLevel } from "@/lib/verification/verification-report";

export type SignedPdfState =
  | { state: "pending"; txToken: string }
  | { state: "failed"; txToken: string; message: string }
  | { state: "done"; txToken: string; pdf: Uint8Array; padesLevel: PadesLevel | null; revocationUnavailable: string[] };

/** getSignedPDF by tx_token (or doc_id), only within the caller's organization. */
export async function getSignedPdf(input: { organizationId: string; txToken: string }, { db, blobs }: { db: Db; blobs: BlobStore }): Promise<SignedPdfState> {
  const [row] = await db
    .select()
    .from(stampTransactions)
    .where(
      and(
        eq(stampTransactions.organizationId, input.organizationId),
        eq(stampTransactions.operation, "signPDF"),
        or(eq(stampTransactions.txToken, input.txToken), eq(stampTransactions.docId, input.txToken)),
      ),
    )
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", `No existe una transacción con tx_token ${input.txToken}`, "tx_token");
  if (row.status === "pending") return { state: "pending", txToken: row.txToken };
  if (row.status === "failed") return { state: "failed", txToken: row.txToken, message: row.failureMessage ?? "Error al firmar el PDF." };
  const pdf = row.outputBlobKey ? await blobs.get(row.outputBlobKey) : null;
  if (!pdf) throw new AppError("GONE", "El documento firmado ya no está disponible", "tx_token");
  const revocationUnavailable = (row.summary as { revocationUnavailable?: string[] } | null)?.revocationUnavailable ?? [];
  return { state: "done", txToken: row.txToken, pdf, padesLevel: (row.padesLevel as PadesLevel | null) ?? null, revocationUnavailable };
}
