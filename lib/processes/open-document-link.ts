import { tokenExpired } from "@/lib/crypto/signed-token";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments } from "@/db/schema";
import type { BlobStore, OpenedBlob } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { documentLinkValid } from "./document-link";

/**
 * GET /api/documents/<id>?expires&signature: the current revision of a document, for a link that
 * the list or the callback issued less than 120 s ago. Anything else is 404 (no oracle).
 */
export async function openDocumentLink(
  input: { documentId: string; expires: number; signature: string },
  { db, ...deps }: { db: Db; blobs: BlobStore; secretKey: Uint8Array },
): Promise<{ name: string; blob: OpenedBlob }> {
  if (!/^[0-9a-f-]{36}$/.test(input.documentId) || tokenExpired(input.expires)) throw new AppError("NOT_FOUND");
  const [document] = await db.select().from(processDocuments).where(eq(processDocuments.id, input.documentId)).limit(1);
  if (!document || !documentLinkValid(document, input, deps.secretKey)) throw new AppError("NOT_FOUND");
  // streamed to the client: a large document is never held whole by the server
  const blob = await deps.blobs.open(document.currentBlobKey);
  if (!blob) throw new AppError("NOT_FOUND");
  return { name: document.name, blob };
}
