/** Turning the faces of a closed but inconsistently wound mesh piece to agree (see mesh-volume.ts). */
import { edgeSlot, meshScratch } from './mesh-scratch';
import { sixfoldTetrahedron } from './mesh-triangles';

/**
 * Six times the volume of a piece that is closed but wound inconsistently (every edge shared by exactly two triangles,
 * some running it the same way), once its triangles are turned to agree with their neighbours; null when some edge is
 * not shared by exactly two triangles or the surface cannot be oriented. Each connected shell counts by its absolute
 * volume: which way a shell was meant to face is unknown.
 */
export function reorient(vertices: ArrayLike<number>, indices: ArrayLike<number>, triangleCount: number, tableLength: number, centre: Float64Array): number | null {
  const mask = tableLength - 1;
  if (meshScratch.edgeTriangles.length < 2 * tableLength) meshScratch.edgeTriangles = new Int32Array(2 * tableLength);
  const { edgeTriangles, weldedIds } = meshScratch;
  edgeTriangles.fill(-1, 0, 2 * tableLength);
  const corners = (triangle: number): [number, number, number] => [
    weldedIds[indices[triangle * 3] ?? 0] ?? 0,
    weldedIds[indices[triangle * 3 + 1] ?? 0] ?? 0,
    weldedIds[indices[triangle * 3 + 2] ?? 0] ?? 0,
  ];
  const degenerate = ([a, b, c]: [number, number, number]): boolean => a === b || b === c || c === a;

  // The two triangles of every edge.
  for (let triangle = 0; triangle < triangleCount; triangle++) {
    const triple = corners(triangle);
    if (degenerate(triple)) continue;
    for (let side = 0; side < 3; side++) {
      const slot = edgeSlot(triple[side] ?? 0, triple[(side + 1) % 3] ?? 0, mask);
      if ((edgeTriangles[2 * slot] ?? -1) < 0) edgeTriangles[2 * slot] = triangle;
      else if ((edgeTriangles[2 * slot + 1] ?? -1) < 0) edgeTriangles[2 * slot + 1] = triangle;
      else return null;
    }
  }

  // Walk each shell from one of its triangles, turning each neighbour to run their shared edge the other way.
  const turned = new Int8Array(triangleCount).fill(-1);
  let volume = 0;
  for (let start = 0; start < triangleCount; start++) {
    if (turned[start] !== -1 || degenerate(corners(start))) continue;
    turned[start] = 0;
    const pending = [start];
    let shell = 0;
    for (let triangle = pending.pop(); triangle !== undefined; triangle = pending.pop()) {
      const flip = turned[triangle] === 1;
      const sign = flip ? -1 : 1;
      shell += sign * sixfoldTetrahedron(vertices, centre, indices[triangle * 3] ?? 0, indices[triangle * 3 + 1] ?? 0, indices[triangle * 3 + 2] ?? 0);
      const triple = corners(triangle);
      for (let side = 0; side < 3; side++) {
        // This triangle runs from → to once turned as decided; its neighbour must run to → from.
        const from = flip ? (triple[(side + 1) % 3] ?? 0) : (triple[side] ?? 0);
        const to = flip ? (triple[side] ?? 0) : (triple[(side + 1) % 3] ?? 0);
        const slot = edgeSlot(from, to, mask);
        const first = edgeTriangles[2 * slot] ?? -1;
        const neighbour = first === triangle ? (edgeTriangles[2 * slot + 1] ?? -1) : first;
        if (neighbour < 0) return null;
        const other = corners(neighbour);
        // Whether the neighbour, as written, runs from → to: then it must be turned.
        let runsAlong = false;
        for (let k = 0; k < 3; k++) if (other[k] === from && other[(k + 1) % 3] === to) runsAlong = true;
        const wanted = runsAlong ? 1 : 0;
        if (turned[neighbour] === -1) {
          turned[neighbour] = wanted;
          pending.push(neighbour);
        } else if (turned[neighbour] !== wanted) {
          return null;
        }
      }
    }
    volume += Math.abs(shell);
  }
  return volume;
}
