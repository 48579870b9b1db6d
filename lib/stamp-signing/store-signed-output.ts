import type { BlobStore, StagedUpload } from "@/lib/blob-store/blob-store";

export type SignedOutput = {
  key: string;
  pdf: Uint8Array;
  /** The upload, staged as it arrived (parse-multipart.ts), when the store could stage it. */
  staged?: StagedUpload;
  /** How many first bytes of `pdf` are the upload itself, as the worker knows by construction (produce-stamped-pdf.ts). */
  uploadPrefixBytes?: number;
};

/**
 * Stores a signed PDF (or a queued input). When its first bytes are the staged upload, only what
 * follows is written (blob-store.ts says why); otherwise, or if the staged copy failed, the whole.
 */
export async function storeSignedOutput({ key, pdf, staged, uploadPrefixBytes }: SignedOutput, blobs: BlobStore): Promise<void> {
  if (staged && uploadPrefixBytes !== undefined && uploadPrefixBytes === staged.size && pdf.length >= uploadPrefixBytes) {
    try {
      return await staged.store(key, pdf.subarray(uploadPrefixBytes));
    } catch {
      // the staged file is gone (store removes it on failure); the output is all in memory
    }
  }
  await blobs.put(key, pdf, "application/pdf");
}
