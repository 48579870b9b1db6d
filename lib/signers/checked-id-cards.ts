import { locateIdCard, readIdCard, type IdDocumentCheck } from "@/lib/id-documents/verify-id-document";
import { analyzedReference } from "./analyzed-references";
import { keptFaceAnalysis } from "./kept-face-analyses";

/**
 * The verdict on an ID card photo for the number the signer must prove: the card located, read
 * (OCR of its MRZ or printed number, its expiry) and its portrait cut. Kept like a frame's analysis
 * (kept-face-analyses.ts), by the photo's bytes and that number: the card the page sends when the
 * capture starts (facial/id-document) is read while the signer moves, and the try that uploads the
 * same photo finds it read. A refusal is a verdict on the photo and is kept; an engine failure is
 * not. Only the verdict is kept (the portrait and what was read), never the decoded photo.
 */
export function checkedIdCard(photo: Uint8Array, docId: string, now = Date.now()): Promise<IdDocumentCheck> {
  return keptFaceAnalysis({ purpose: `card:${docId}`, picture: photo, now }, readCardPhoto(docId), () => false);
}

const readCardPhoto = (docId: string) => async (photo: Uint8Array): Promise<IdDocumentCheck> => {
  const located = await locateIdCard(photo);
  return located.ok ? readIdCard(located.card, { docId }) : located;
};

/**
 * The face-pool task behind POST facial/id-document: reads and keeps the card's verdict, and the
 * analysis of its portrait (the try's face reference, analyzed-references.ts); tells the page
 * nothing of either.
 */
export async function readIdDocumentAhead(input: { idDocument: Uint8Array; docId: string }): Promise<{ received: true }> {
  const verdict = await checkedIdCard(input.idDocument, input.docId);
  // a portrait without a usable face is the try's to report (and is not kept)
  if (verdict.ok) await analyzedReference(verdict.portrait).catch(() => undefined);
  return { received: true };
}
