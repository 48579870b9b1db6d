import type { Db } from "@/db/client";
import { prepareSignerSignature } from "../prepare-signer-signature";
import { pagesToShow, recordPagesShown } from "../record-pages-shown";

export const TEST_CLIENT = { address: "127.0.0.1", userAgent: "vitest" };

/** What the reading step reports once a signer scrolled through every page of every file. */
export async function showEveryPage(input: { token: string; signerId: string }, db: Db) {
  const plan = await prepareSignerSignature(input, db);
  for (const document of plan.documents) {
    const pages = Array.from({ length: pagesToShow(document) }, (_, i) => i);
    await recordPagesShown({ ...input, documentId: document.documentId, pages, client: TEST_CLIENT }, db);
  }
}
