import { asc, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments, processes, processSigners } from "@/db/schema";

export type ProcessRow = typeof processes.$inferSelect;
export type DocumentRow = typeof processDocuments.$inferSelect;
export type SignerRow = typeof processSigners.$inferSelect;
export type ProcessRecord = { process: ProcessRow; documents: DocumentRow[]; signers: SignerRow[] };

/** Documents and signers of a page of processes: two queries whatever the page size. */
export async function loadProcessRecords(rows: ProcessRow[], db: Db): Promise<ProcessRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [documents, signers] = await Promise.all([
    db.select().from(processDocuments).where(inArray(processDocuments.processId, ids)).orderBy(asc(processDocuments.index)),
    db.select().from(processSigners).where(inArray(processSigners.processId, ids)).orderBy(asc(processSigners.position)),
  ]);
  return rows.map((process) => ({
    process,
    documents: documents.filter((d) => d.processId === process.id),
    signers: signers.filter((s) => s.processId === process.id),
  }));
}
