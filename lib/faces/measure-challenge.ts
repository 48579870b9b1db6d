import type { FaceMesh } from "./measure-head-motion";

/** What the signer page can ask for; two are chosen by the server per try (lib/signers/facial-challenge.ts). */
export const LIVENESS_CHALLENGES = ["turn-left", "turn-right", "look-up", "smile", "move-closer"] as const;
export type LivenessChallenge = (typeof LIVENESS_CHALLENGES)[number];

/**
 * Required change from the start pose. Calibrated on rigid head rotations, not on pictures: the face
 * mesh of each of the 11 fixture photos (468 points with Human's depth: the nose 0.65–0.73 face
 * widths in front of the ear line) rotated about the neck's axis (lib/faces/testing/rotate-face.ts,
 * docs/faces.md):
 * - a turn moves the nose between the face edges (5°: 0.06–0.07, 10°: 0.12–0.15, 25°: 0.30–0.46)
 *   and carries the face's outline a little in the same direction (5°: 0.03, 10°: 0.05–0.06, 25°:
 *   0.13–0.15 face widths); a picture slid sideways moves the outline but not the nose, a warp of
 *   the nose alone moves the nose but not the outline;
 * - looking up raises the nose tip towards the eyes (5°: 0.03–0.04, 10°: 0.06–0.08, 25°: 0.16–0.23);
 * - a smile widens the mouth against the face; moving closer makes the face wider.
 * The detector, run on the rotated faces rendered as pictures, measures the same (25°: nose
 * 0.20–0.39, outline 0.11–0.17, look-up 0.09–0.24). A still frame stays within ± 0.02 of each.
 */
export const CHALLENGE_THRESHOLDS = {
  /** Nose between the face edges: a rotation, not a picture slid sideways (which leaves it at ~0 ± 0.03). */
  turn: 0.08,
  /** Face outline, in face widths, in the turn's direction: the face itself turned, not only its nose (a rigid ~7° turn). */
  headShift: 0.04,
  /** About an 8° nod upwards. */
  lookUp: 0.05,
  smile: 0.05,
  closer: 0.15,
} as const;

// MediaPipe face-mesh indexes
const NOSE_TIP = 1;
const EDGE_IMAGE_LEFT = 234;
const EDGE_IMAGE_RIGHT = 454;
const CHIN = 152;
const EYE_OUTER_IMAGE_LEFT = 33;
const EYE_OUTER_IMAGE_RIGHT = 263;
const MOUTH_CORNERS = [61, 291] as const;
const FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];

/** The measured change of one frame against the start pose, per quantity (signed, see each function). */
export interface PoseChange {
  turn: number;
  headShift: number;
  lookUp: number;
  smile: number;
  closer: number;
}

/**
 * Share (0–1) of `challenge` achieved by the best of `frames` against `start`. For a turn both the
 * nose and the head outline must have moved far enough in the asked direction in the same frame.
 */
export function challengeProgress(challenge: LivenessChallenge, start: FaceMesh, frames: FaceMesh[]): { progress: number; best: PoseChange } {
  let best = { progress: 0, best: poseChange(start, start) };
  for (const frame of frames) {
    const change = poseChange(start, frame);
    const progress = progressOf(challenge, change);
    if (progress >= best.progress) best = { progress, best: change };
  }
  return best;
}

function progressOf(challenge: LivenessChallenge, change: PoseChange): number {
  const t = CHALLENGE_THRESHOLDS;
  const sign = challenge === "turn-left" ? 1 : -1;
  const raw =
    challenge === "turn-left" || challenge === "turn-right"
      ? Math.min((sign * change.turn) / t.turn, (sign * change.headShift) / t.headShift)
      : challenge === "look-up"
        ? change.lookUp / t.lookUp
        : challenge === "smile"
          ? change.smile / t.smile
          : change.closer / t.closer;
  return Math.max(0, Math.min(1, raw));
}

/**
 * Change of `frame` against `start`, each as a ratio to the face's own size so distance does not matter:
 * - turn: nose position between the face edges (positive: towards image right = the signer's own left, unmirrored);
 * - headShift: the face outline's centre, in face widths (same sign as turn);
 * - lookUp: nose tip rising towards the eyes, as a share of the eyes-to-chin height (positive = up);
 * - smile: mouth width over face width, relative growth;
 * - closer: face width, relative growth.
 */
export function poseChange(start: FaceMesh, frame: FaceMesh): PoseChange {
  const width = faceWidth(start);
  return {
    turn: noseOffset(frame) - noseOffset(start),
    headShift: width === 0 ? 0 : (ovalCentreX(frame) - ovalCentreX(start)) / width,
    lookUp: noseDrop(start) - noseDrop(frame),
    smile: mouthShare(start) === 0 ? 0 : mouthShare(frame) / mouthShare(start) - 1,
    closer: width === 0 ? 0 : faceWidth(frame) / width - 1,
  };
}

function noseOffset(mesh: FaceMesh): number {
  const left = mesh[EDGE_IMAGE_LEFT][0];
  const right = mesh[EDGE_IMAGE_RIGHT][0];
  return right === left ? 0 : (mesh[NOSE_TIP][0] - left) / (right - left) - 0.5;
}

function ovalCentreX(mesh: FaceMesh): number {
  return FACE_OVAL.reduce((sum, i) => sum + mesh[i][0], 0) / FACE_OVAL.length;
}

function noseDrop(mesh: FaceMesh): number {
  const eyes = (mesh[EYE_OUTER_IMAGE_LEFT][1] + mesh[EYE_OUTER_IMAGE_RIGHT][1]) / 2;
  const height = mesh[CHIN][1] - eyes;
  return height === 0 ? 0 : (mesh[NOSE_TIP][1] - eyes) / height;
}

function mouthShare(mesh: FaceMesh): number {
  const [a, b] = MOUTH_CORNERS;
  const mouth = Math.hypot(mesh[a][0] - mesh[b][0], mesh[a][1] - mesh[b][1]);
  const face = Math.hypot(mesh[EDGE_IMAGE_LEFT][0] - mesh[EDGE_IMAGE_RIGHT][0], mesh[EDGE_IMAGE_LEFT][1] - mesh[EDGE_IMAGE_RIGHT][1]);
  return face === 0 ? 0 : mouth / face;
}

function faceWidth(mesh: FaceMesh): number {
  return Math.abs(mesh[EDGE_IMAGE_RIGHT][0] - mesh[EDGE_IMAGE_LEFT][0]);
}
