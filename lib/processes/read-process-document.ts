import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";

/** The original upload or the latest signed revision of one of the organization's documents (dashboard download). */
export async function readProcessDocument(
  input: { organizationId: string; documentId: string; version: "original" | "current" },
  { db, blobs }: { db: Db; blobs: BlobStore },
): Promise<{ name: string; bytes: Uint8Array }> {
  if (!/^[0-9a-f-]{36}$/.test(input.documentId)) throw new AppError("NOT_FOUND");
  const [document] = await db
    .select()
    .from(processDocuments)
    .where(and(eq(processDocuments.id, input.documentId), eq(processDocuments.organizationId, input.organizationId)))
    .limit(1);
  if (!document) throw new AppError("NOT_FOUND");
  const bytes = await blobs.get(input.version === "original" ? document.originalBlobKey : document.currentBlobKey);
  if (!bytes) throw new AppError("NOT_FOUND");
  const name = input.version === "original" ? document.name : document.name.replace(/(\.pdf)?$/i, "-firmado.pdf");
  return { name, bytes };
}
