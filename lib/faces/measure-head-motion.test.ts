import { describe, expect, it } from "vitest";
import { measureHeadMotion, type FaceMesh } from "./measure-head-motion";

/** A flat stand-in mesh: 468 points on a grid, nose tip (1) centred between the edges (234, 454). */
function flatMesh(noseX = 50): FaceMesh {
  const mesh: FaceMesh = Array.from({ length: 468 }, (_, i) => [(i % 22) * 5, Math.floor(i / 22) * 5, 0]);
  mesh[234] = [0, 50, 0];
  mesh[454] = [100, 50, 0];
  mesh[1] = [noseX, 55, 0];
  return mesh;
}

function moved(mesh: FaceMesh, scale: number, angle: number, dx: number, dy: number): FaceMesh {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  return mesh.map(([x, y, z]) => [scale * (c * x - s * y) + dx, scale * (s * x + c * y) + dy, z]);
}

describe("measureHeadMotion", () => {
  it("sees no 3-D motion when a picture is slid, zoomed or rotated in the image plane", () => {
    const base = flatMesh();
    const motion = measureHeadMotion([base, moved(base, 1.1, 0, 10, 5), moved(base, 1.3, 0.05, -20, 8)]);
    expect(motion.nonRigid).toBeLessThan(1e-6);
    expect(Math.abs(motion.turn)).toBeLessThan(0.01);
    expect(motion.scale).toBeCloseTo(1.3, 1);
  });

  it("reports a nose moving towards image right as a positive turn (signer's own left)", () => {
    const motion = measureHeadMotion([flatMesh(50), flatMesh(65), flatMesh(80)]);
    expect(motion.turn).toBeCloseTo(0.3, 5);
    expect(motion.nonRigid).toBeGreaterThan(0);
    expect(measureHeadMotion([flatMesh(50), flatMesh(20)]).turn).toBeCloseTo(-0.3, 5);
  });

  it("reports nothing for a single frame", () => {
    expect(measureHeadMotion([flatMesh()])).toEqual({ turn: 0, scale: 1, nonRigid: 0 });
  });
});
