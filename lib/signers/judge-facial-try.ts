import { assessLiveness, type LivenessAssessment, type LivenessChallenge } from "@/lib/faces/assess-liveness";
import { FaceError } from "@/lib/faces/face-error";
import { matchFaces } from "@/lib/faces/match-faces";
import { analyzedReference } from "./analyzed-references";
import { analyzedFrame } from "./analyzed-frames";
import type { ExpiryProblem, IdDocumentRefusal } from "@/lib/id-documents/verify-id-document";
import { checkedIdCard } from "./checked-id-cards";

/** Why a check could not be made; the try is not counted and the page says what to change. */
export type FacialRetryReason = "challenge_expired" | "id_document_required" | IdDocumentRefusal | "selfie_no_face" | "selfie_multiple_faces" | "selfie_too_small";

export type FacialJudgement =
  | { kind: "retry"; reason: FacialRetryReason }
  | { kind: "judged"; live: boolean; reasons: string[]; similarity: number; threshold: number; decision: "match" | "no-match"; idDocument?: IdDocumentEvidence; /** The portrait cut from the ID photo (JPEG), for the reviewer. */ portrait?: Uint8Array };

/** How the ID document proved the signer's number (for the evidence and the reviewer). */
export type IdDocumentEvidence = { numberSource: "mrz" | "printed"; mrzValid: boolean; mrzLines?: string[]; mrzNames?: { lastName: string; firstName: string }; expiresOn?: string; expiryProblem?: ExpiryProblem };

/**
 * The face analysis of one try, a pure function of the pictures (it runs in the worker pool; a
 * frame the page sent as it was captured is found analysed, by its bytes: analyzed-frames.ts):
 * an ID photo must be an identity card bearing `docId` (its portrait becomes the reference),
 * liveness over the frames with the asked movements, then the first frame against the reference.
 */
export async function judgeFacialTry(input: { frames: Uint8Array[]; reference: Uint8Array; referenceIsIdDocument: boolean; docId: string; challenges: LivenessChallenge[] }): Promise<FacialJudgement> {
  let reference = input.reference;
  let idDocument: IdDocumentEvidence | undefined;
  let liveness: LivenessAssessment;
  if (input.referenceIsIdDocument) {
    // any photo is not a reference: it must be an identity card with the signer's number on it. A
    // card sent when the capture started is read already (checked-id-cards.ts); tesseract reads
    // any other in its own thread while this one analyses the frames
    const reading = checkedIdCard(input.reference, input.docId);
    const assessed = await assessLiveness(input.frames, { challenges: input.challenges, analyze: (frame) => analyzedFrame(frame) }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    // a refused card answers first, as when the frames were analysed after it
    const card = await reading;
    if (!card.ok) return { kind: "retry", reason: card.reason };
    if ("error" in assessed) throw assessed.error;
    liveness = assessed.value;
    reference = card.portrait;
    idDocument = { numberSource: card.numberSource, mrzValid: card.mrzValid, ...(card.mrzLines ? { mrzLines: card.mrzLines, mrzNames: card.mrzNames } : {}), ...(card.expiresOn ? { expiresOn: card.expiresOn } : {}), ...(card.expiryProblem ? { expiryProblem: card.expiryProblem } : {}) };
  } else {
    liveness = await assessLiveness(input.frames, { challenges: input.challenges, analyze: (frame) => analyzedFrame(frame) });
  }
  const firstFrame = liveness.reasons.find((r) => r.startsWith("frame-0-"));
  if (liveness.reasons.includes("too-few-faces") || firstFrame) {
    return { kind: "retry", reason: firstFrame?.endsWith("multiple-faces") ? "selfie_multiple_faces" : firstFrame?.endsWith("too-small") ? "selfie_too_small" : "selfie_no_face" };
  }
  try {
    // a registry photo was analysed when the capture started (warm-facial-check.ts), a card's
    // portrait when the card was sent then (checked-id-cards.ts); else it is analysed now
    const match = await matchFaces(liveness.startFace ?? input.frames[0], await analyzedReference(reference));
    return { kind: "judged", live: liveness.live, reasons: liveness.reasons, similarity: match.similarity, threshold: match.threshold, decision: match.decision, ...(idDocument ? { idDocument, portrait: reference } : {}) };
  } catch (error) {
    if (!(error instanceof FaceError)) throw error;
    return { kind: "retry", reason: error.reason === "MULTIPLE_FACES" ? "selfie_multiple_faces" : error.reason === "FACE_TOO_SMALL" ? "selfie_too_small" : "selfie_no_face" };
  }
}
