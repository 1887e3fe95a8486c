/** Capping the holes of a nearly closed mesh piece (see mesh-volume.ts). */
import { meshScratch, STRIDE } from './mesh-scratch';
import { doubleArea, sixfoldTetrahedron } from './mesh-triangles';

/** A piece with holes still counts as closed when capping them takes at most this share of its surface area. */
const HOLE_SHARE = 0.1;

/**
 * Caps the holes of a nearly closed piece (its edge table filled, some edges unbalanced; see the module comment) and
 * returns what the caps add to six times its volume about `centre`, or null when the holes are too large for the piece
 * to count as closed. A hole's size is its cap's vector area (the area it spans, seen flat): the collinear rims a
 * T-junction leaves span nothing, a missing face spans the face.
 */
export function capHoles(vertices: ArrayLike<number>, indices: ArrayLike<number>, triangleCount: number, tableLength: number, centre: Float64Array): number | null {
  const { edgeLow, edgeHigh, edgeBalance, weldedCorners } = meshScratch;
  const rims: number[] = [];
  for (let slot = 0; slot < tableLength; slot++) if ((edgeLow[slot] ?? -1) >= 0 && edgeBalance[slot] !== 0) rims.push(slot);

  // Connected rims (by welded vertex), each with its centroid and its cap's vector area.
  const parent = new Map<number, number>();
  const root = (vertex: number): number => {
    let current = vertex;
    for (let next = parent.get(current) ?? current; next !== current; next = parent.get(current) ?? current) current = next;
    parent.set(vertex, current);
    return current;
  };
  for (const slot of rims) {
    const low = edgeLow[slot] ?? 0;
    const high = edgeHigh[slot] ?? 0;
    if (!parent.has(low)) parent.set(low, low);
    if (!parent.has(high)) parent.set(high, high);
    parent.set(root(low), root(high));
  }
  // Per rim: sum of its vertices (x, y, z), their count, then its cap's vector area ×2 (x, y, z).
  const holes = new Map<number, Float64Array>();
  for (const vertex of parent.keys()) {
    const corner = weldedCorners[vertex] ?? 0;
    let hole = holes.get(root(vertex));
    if (hole === undefined) {
      hole = new Float64Array(7);
      holes.set(root(vertex), hole);
    }
    for (let axis = 0; axis < 3; axis++) hole[axis] = (hole[axis] ?? 0) + (vertices[corner * STRIDE + axis] ?? 0);
    hole[3] = (hole[3] ?? 0) + 1;
  }

  // A cap triangle per unit of balance: (centroid, high, low) runs the rim edge low → high backwards.
  const fan = new Float64Array(STRIDE * 3);
  let capVolume = 0;
  for (const slot of rims) {
    const balance = edgeBalance[slot] ?? 0;
    const low = weldedCorners[edgeLow[slot] ?? 0] ?? 0;
    const high = weldedCorners[edgeHigh[slot] ?? 0] ?? 0;
    const hole = holes.get(root(edgeLow[slot] ?? 0)) ?? new Float64Array(7);
    for (let axis = 0; axis < 3; axis++) {
      fan[axis] = (hole[axis] ?? 0) / (hole[3] ?? 1);
      fan[STRIDE + axis] = vertices[high * STRIDE + axis] ?? 0;
      fan[2 * STRIDE + axis] = vertices[low * STRIDE + axis] ?? 0;
    }
    capVolume += balance * sixfoldTetrahedron(fan, centre, 0, 1, 2);
    const ux = (fan[STRIDE] ?? 0) - (fan[0] ?? 0);
    const uy = (fan[STRIDE + 1] ?? 0) - (fan[1] ?? 0);
    const uz = (fan[STRIDE + 2] ?? 0) - (fan[2] ?? 0);
    const vx = (fan[2 * STRIDE] ?? 0) - (fan[0] ?? 0);
    const vy = (fan[2 * STRIDE + 1] ?? 0) - (fan[1] ?? 0);
    const vz = (fan[2 * STRIDE + 2] ?? 0) - (fan[2] ?? 0);
    hole[4] = (hole[4] ?? 0) + balance * (uy * vz - uz * vy);
    hole[5] = (hole[5] ?? 0) + balance * (uz * vx - ux * vz);
    hole[6] = (hole[6] ?? 0) + balance * (ux * vy - uy * vx);
  }
  // Both areas twice over: only their ratio matters.
  let capArea = 0;
  for (const hole of holes.values()) capArea += Math.hypot(hole[4] ?? 0, hole[5] ?? 0, hole[6] ?? 0);
  let surfaceArea = 0;
  for (let triangle = 0; triangle < triangleCount; triangle++) {
    const i0 = indices[triangle * 3] ?? 0;
    const i1 = indices[triangle * 3 + 1] ?? 0;
    const i2 = indices[triangle * 3 + 2] ?? 0;
    surfaceArea += doubleArea(vertices, i0, i1, i2);
  }
  return capArea <= HOLE_SHARE * surfaceArea ? capVolume : null;
}
