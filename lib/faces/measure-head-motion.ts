/** Face-mesh points [x, y, z] of one frame, in image pixels. */
export type FaceMesh = [number, number, number][];

/** How the head moved across frames, from face-mesh geometry alone. */
export interface HeadMotion {
  /**
   * Change of the nose's horizontal position between the face edges (a ratio, so moving, scaling or
   * tilting a flat picture barely changes it). Positive: the nose moved towards image right, which in
   * an unmirrored camera frame means the signer turned to their own left.
   */
  turn: number;
  /** Largest face-width ratio of a later frame to the first one (1.2 = face 20 % larger). */
  scale: number;
  /**
   * Largest landmark change not explained by moving, scaling or rotating the picture in the image
   * plane (Procrustes residual relative to face size): near 0 for a photo slid or zoomed in front of the camera.
   */
  nonRigid: number;
}

// MediaPipe face-mesh indexes: nose tip, the face edge on image left and on image right
const NOSE_TIP = 1;
const EDGE_IMAGE_LEFT = 234;
const EDGE_IMAGE_RIGHT = 454;

/** Compares every frame with the first one; frames must each hold the same single face. */
export function measureHeadMotion(meshes: FaceMesh[]): HeadMotion {
  if (meshes.length < 2) return { turn: 0, scale: 1, nonRigid: 0 };
  const first = meshes[0];
  const turns = meshes.map(noseOffset);
  const widths = meshes.map(faceWidth);
  let turn = 0;
  for (const value of turns) if (Math.abs(value - turns[0]) > Math.abs(turn)) turn = value - turns[0];
  return {
    turn,
    scale: Math.max(...widths.slice(1)) / widths[0],
    nonRigid: Math.max(...meshes.slice(1).map((mesh) => procrustesResidual(first, mesh))),
  };
}

/** Nose position between the face edges, −0.5 (at the image-left edge) to +0.5. */
function noseOffset(mesh: FaceMesh): number {
  const left = mesh[EDGE_IMAGE_LEFT][0];
  const right = mesh[EDGE_IMAGE_RIGHT][0];
  return right === left ? 0 : (mesh[NOSE_TIP][0] - left) / (right - left) - 0.5;
}

function faceWidth(mesh: FaceMesh): number {
  return Math.abs(mesh[EDGE_IMAGE_RIGHT][0] - mesh[EDGE_IMAGE_LEFT][0]);
}

/**
 * RMS distance left after the best 2-D similarity transform (shift, scale, in-plane rotation) maps
 * `a` onto `b`, divided by the spread of `b`: closed-form orthogonal Procrustes in the complex plane.
 */
function procrustesResidual(a: FaceMesh, b: FaceMesh): number {
  const n = Math.min(a.length, b.length);
  let ax = 0;
  let ay = 0;
  let bx = 0;
  let by = 0;
  for (let i = 0; i < n; i++) {
    ax += a[i][0] / n;
    ay += a[i][1] / n;
    bx += b[i][0] / n;
    by += b[i][1] / n;
  }
  let dot = 0;
  let cross = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < n; i++) {
    const [px, py] = [a[i][0] - ax, a[i][1] - ay];
    const [qx, qy] = [b[i][0] - bx, b[i][1] - by];
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    normA += px * px + py * py;
    normB += qx * qx + qy * qy;
  }
  if (normA === 0 || normB === 0) return 0;
  const residual = normB - (dot * dot + cross * cross) / normA;
  return Math.sqrt(Math.max(0, residual) / normB);
}
