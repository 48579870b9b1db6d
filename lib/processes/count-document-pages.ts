import type { DocumentRow } from "./load-process-records";

/**
 * Pages of the file as it is now: the first signature appends the stamp page, so a signed file has
 * one page more than the upload (`pages` keeps the upload's count, which stamp positions refer to).
 */
export function signedPageCount(document: Pick<DocumentRow, "pages" | "stampPageAppended">): number {
  return document.pages + (document.stampPageAppended ? 1 : 0);
}
