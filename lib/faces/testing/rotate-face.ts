import type { FaceMesh } from "../measure-head-motion";
import { samplePixel } from "./sample-pixel";

/**
 * Test and benchmark support: a head turn or nod rendered in 3-D from one photo. The face mesh of
 * the photo (468 points with Human's depth estimate) is rotated as a rigid head rotates, about an
 * axis behind the face at the ear line, and the photo's texture is drawn onto the rotated triangles
 * (nearest surface wins, surfaces turned away are dropped). Hair, ears and background stay where
 * they are, as they roughly do when a real head turns on the neck.
 *
 * This is what a real head does to the face's geometry, and it is also the best a one-photo
 * attacker can do with a 3-D face model: docs/faces.md says what that means for liveness.
 */
export interface HeadRotation {
  /** Radians about the vertical axis; positive turns the nose towards image right (the signer's own left, unmirrored). */
  yaw: number;
  /** Radians about the horizontal axis; positive raises the nose (looking up). */
  pitch: number;
}

// MediaPipe face-mesh indexes: the face edges at the ear line
const EDGE_IMAGE_LEFT = 234;
const EDGE_IMAGE_RIGHT = 454;

/** How far behind the face edges the neck's rotation axis sits, in face widths (the atlas joint is about at the ear canals). */
const AXIS_BEHIND_EDGES = 0.1;

/** `mesh` as it would be after the head rotated by `rotation` (x, y in pixels; z grows away from the camera). */
export function rotateMesh(mesh: FaceMesh, rotation: HeadRotation): FaceMesh {
  const width = Math.abs(mesh[EDGE_IMAGE_RIGHT][0] - mesh[EDGE_IMAGE_LEFT][0]);
  const ax = (mesh[EDGE_IMAGE_LEFT][0] + mesh[EDGE_IMAGE_RIGHT][0]) / 2;
  const ay = (mesh[EDGE_IMAGE_LEFT][1] + mesh[EDGE_IMAGE_RIGHT][1]) / 2;
  const az = (mesh[EDGE_IMAGE_LEFT][2] + mesh[EDGE_IMAGE_RIGHT][2]) / 2 + AXIS_BEHIND_EDGES * width;
  // nose in front of the axis (z below az): a positive yaw must move it to +x, a positive pitch to −y
  const [cy, sy] = [Math.cos(-rotation.yaw), Math.sin(-rotation.yaw)];
  const [cp, sp] = [Math.cos(rotation.pitch), Math.sin(rotation.pitch)];
  return mesh.map(([x, y, z]) => {
    // yaw about the vertical axis through (ax, az), then pitch about the horizontal axis through (ay, az)
    const x1 = ax + (x - ax) * cy + (z - az) * sy;
    const z1 = az - (x - ax) * sy + (z - az) * cy;
    const y2 = ay + (y - ay) * cp + (z1 - az) * sp;
    const z2 = az - (y - ay) * sp + (z1 - az) * cp;
    return [x1, y2, z2];
  });
}

/** The photo `rgba` (width × height) with its face, described by `mesh` and `triangles` (index triples), rotated. */
export function renderRotatedFace(rgba: Buffer, size: { width: number; height: number }, mesh: FaceMesh, triangles: number[], rotation: HeadRotation): Buffer {
  const { width, height } = size;
  const moved = rotateMesh(mesh, rotation);
  const out = Buffer.from(rgba);
  const source = { data: rgba, ...size, channels: 4 as const };
  const depth = new Float32Array(width * height).fill(Infinity);
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const [i, j, k] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const [a, b, c] = [moved[i], moved[j], moved[k]];
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    const sourceArea = (mesh[j][0] - mesh[i][0]) * (mesh[k][1] - mesh[i][1]) - (mesh[k][0] - mesh[i][0]) * (mesh[j][1] - mesh[i][1]);
    // turned away from the camera (its winding flipped) or seen edge-on
    if (Math.abs(area) < 1e-6 || Math.sign(area) !== Math.sign(sourceArea)) continue;
    const minX = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0])));
    const maxX = Math.min(width - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
    const minY = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1])));
    const maxY = Math.min(height - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const wa = ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / area;
        const wb = ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / area;
        const wc = 1 - wa - wb;
        if (wa < -1e-4 || wb < -1e-4 || wc < -1e-4) continue;
        const z = wa * a[2] + wb * b[2] + wc * c[2];
        const at = y * width + x;
        if (z >= depth[at]) continue;
        depth[at] = z;
        const sx = wa * mesh[i][0] + wb * mesh[j][0] + wc * mesh[k][0];
        const sy = wa * mesh[i][1] + wb * mesh[j][1] + wc * mesh[k][1];
        samplePixel(source, sx - 0.5, sy - 0.5, out, at * 4);
      }
    }
  }
  return out;
}
