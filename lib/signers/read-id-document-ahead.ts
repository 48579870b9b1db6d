import type { Db } from "@/db/client";
import type { TaskRunner } from "@/lib/runtime/cpu-pool";
import { admitUploadAhead } from "./admit-upload-ahead";
import type { SignerTasks } from "./signer-tasks";

/** Card photos one ticket may send ahead: the one chosen, and one more if the signer changes it. */
export const ID_DOCUMENTS_AHEAD_PER_TICKET = 2;

/**
 * The ID card photo of a capture under way, sent by the page when the capture starts: the face
 * worker reads it (OCR, its portrait) while the signer makes the movements, and keeps the verdict
 * by the photo's bytes and the signer's number (checked-id-cards.ts), so the try that uploads the
 * same photo does not wait for the OCR. It decides nothing and tells nothing of the card: the try
 * judges the photo it uploads, read here or not.
 *
 * Bounded like the frames sent ahead (admit-upload-ahead.ts): a live ticket of this signer,
 * whose flow takes an ID card as reference, at most two photos per ticket in this process, and the
 * face pool's public lane (BUSY when full: the try then reads the card itself).
 */
export async function readIdDocumentAheadOfTry(
  input: { token: string; signerId: string; ticket: string; idDocument: Uint8Array },
  deps: { db: Db; secretKey: Uint8Array; facePool: TaskRunner<SignerTasks> },
): Promise<{ received: true }> {
  const signer = await admitUploadAhead(
    { token: input.token, signerId: input.signerId, ticket: input.ticket, kind: "id-document", limit: ID_DOCUMENTS_AHEAD_PER_TICKET, flowAllows: (flow) => flow.facialReferences.includes("id-document") },
    deps,
  );
  // the number comes from the signer's record, never from the page
  return deps.facePool.run("read-id-document-ahead", { idDocument: input.idDocument, docId: signer.docId }, {}, [], { lane: "public" });
}
