import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processDocuments } from "@/db/schema";
import type { BlobStore } from "@/lib/blob-store/blob-store";
import { AppError } from "@/lib/errors";
import { findSignerReceipt } from "./find-signer-receipt";
import { actingSigner, resolveSigningLink } from "./resolve-signing-link";
import { SignerFlowError } from "./signer-flow-error";

/**
 * The current revision of one document of the link's process, for the identified signer: to read
 * before signing, or to download the signed copy afterwards (also once the process concluded).
 */
export async function readSigningDocument(
  input: { token: string; signerId: string; documentId: string },
  { db, blobs }: { db: Db; blobs: BlobStore },
): Promise<{ name: string; bytes: Uint8Array; signed: boolean }> {
  if (!/^[0-9a-f-]{36}$/.test(input.documentId)) throw new AppError("NOT_FOUND");
  let processId: string;
  let signed = false;
  try {
    const context = await resolveSigningLink({ token: input.token }, db);
    actingSigner(context, input.signerId);
    processId = context.process.id;
  } catch (error) {
    if (!(error instanceof SignerFlowError && ["already_signed", "process_completed"].includes(error.reason))) throw error;
    const receipt = await findSignerReceipt(input, db);
    if (!receipt || !receipt.documents.some((d) => d.id === input.documentId)) throw error;
    processId = receipt.processId;
    signed = true;
  }
  const [document] = await db
    .select()
    .from(processDocuments)
    .where(and(eq(processDocuments.id, input.documentId), eq(processDocuments.processId, processId)))
    .limit(1);
  const bytes = document ? await blobs.get(document.currentBlobKey) : null;
  if (!document || !bytes) throw new AppError("NOT_FOUND");
  return { name: signed ? document.name.replace(/(\.pdf)?$/i, "-firmado.pdf") : document.name, bytes, signed };
}
