import { assessLiveness, type LivenessChallenge } from "@/lib/faces/assess-liveness";
import { analyzeFace } from "@/lib/faces/analyze-face";
import { FaceError } from "@/lib/faces/face-error";
import { matchFaces } from "@/lib/faces/match-faces";
import type { FacialRetryReason } from "./run-facial-check";

export type FacialJudgement =
  | { kind: "retry"; reason: FacialRetryReason }
  | { kind: "judged"; live: boolean; reasons: string[]; similarity: number; threshold: number; decision: "match" | "no-match" };

/**
 * The face analysis of one try, a pure function of the pictures (it runs in the worker pool):
 * the ID photo must show a face (when it is the reference), liveness over the frames with the
 * challenge, then the first frame against the reference.
 */
export async function judgeFacialTry(input: { frames: Uint8Array[]; reference: Uint8Array; referenceIsIdDocument: boolean; challenge: LivenessChallenge }): Promise<FacialJudgement> {
  if (input.referenceIsIdDocument) {
    try {
      await analyzeFace(input.reference, { multipleFaces: "largest" });
    } catch (error) {
      if (!(error instanceof FaceError)) throw error;
      return { kind: "retry", reason: error.reason === "MULTIPLE_FACES" ? "id_document_multiple_faces" : error.reason === "INVALID_IMAGE" ? "id_document_unreadable" : "id_document_no_face" };
    }
  }
  const liveness = await assessLiveness(input.frames, { challenge: input.challenge });
  const firstFrame = liveness.reasons.find((r) => r.startsWith("frame-0-"));
  if (liveness.reasons.includes("too-few-faces") || firstFrame) {
    return { kind: "retry", reason: firstFrame?.endsWith("multiple-faces") ? "selfie_multiple_faces" : firstFrame?.endsWith("too-small") ? "selfie_too_small" : "selfie_no_face" };
  }
  try {
    const match = await matchFaces(input.frames[0], input.reference);
    return { kind: "judged", live: liveness.live, reasons: liveness.reasons, similarity: match.similarity, threshold: match.threshold, decision: match.decision };
  } catch (error) {
    if (!(error instanceof FaceError)) throw error;
    return { kind: "retry", reason: error.reason === "MULTIPLE_FACES" ? "selfie_multiple_faces" : error.reason === "FACE_TOO_SMALL" ? "selfie_too_small" : "selfie_no_face" };
  }
}
