/** One piece of an element's mesh, measured in its own frame: closure, signed volume, bounding box. */
import { capHoles } from './mesh-holes';
import { extend } from './mesh-placement';
import { reorient } from './mesh-reorient';
import { edgeSlot, meshScratch, STRIDE, tableSize } from './mesh-scratch';
import { sixfoldTetrahedron } from './mesh-triangles';
import { weld } from './mesh-weld';

/** One piece of a mesh: web-ifc's vertex and index data and the placement web-ifc gives it. */
export interface MeshPiece {
  /** Six numbers per vertex, as web-ifc interleaves them: x, y, z, then the normal (ignored). */
  vertices: ArrayLike<number>;
  /** Three vertex numbers per triangle. */
  indices: ArrayLike<number>;
  /** 4×4 column-major matrix from the vertices' frame to the world in metres (web-ifc's `flatTransformation`). */
  matrix: ArrayLike<number>;
}

/**
 * Why a mesh gives no volume: `empty` has no triangle with an area (or closes around nothing, as a flat sheet folded onto
 * itself); `open` does not enclose a volume.
 */
export type MeshIssue = 'open' | 'empty';

/** Corners closer than this fraction of the piece's size (bounding box diagonal) are one vertex. */
const WELD_RELATIVE = 1e-6;
/**
 * …and never closer than a few float32 steps at the piece's largest coordinate: web-ifc hands out float32 positions,
 * whose rounding grows with the distance from the frame's origin (2^-21 is 4 units in the last place).
 */
const WELD_FLOAT_STEPS = 2 ** -21;

/** What one piece gives: its closure, volume and bounding box in its own frame (before placement). */
export interface PieceMeasure {
  closure: 'closed' | MeshIssue;
  /** Signed volume in the piece's own frame (before placement). */
  localVolume: number;
  min: Float64Array;
  max: Float64Array;
}

/** Measures one piece in its own frame: bounding box, weld, edge check and signed volume in one pass each. */
export function measurePiece(piece: MeshPiece): PieceMeasure {
  const { vertices, indices } = piece;
  const vertexCount = Math.floor(vertices.length / STRIDE);
  const triangleCount = Math.floor(indices.length / 3);
  const min = Float64Array.of(Infinity, Infinity, Infinity);
  const max = Float64Array.of(-Infinity, -Infinity, -Infinity);
  const empty = (closure: 'open' | 'empty'): PieceMeasure => ({ closure, localVolume: 0, min, max });
  if (vertexCount === 0 || triangleCount === 0) return empty('empty');

  for (let vertex = 0; vertex < vertexCount; vertex++) {
    for (let axis = 0; axis < 3; axis++) {
      const value = vertices[vertex * STRIDE + axis] ?? Number.NaN;
      if (!Number.isFinite(value)) return empty('open');
      extend(min, max, axis, value);
    }
  }
  const [minX = 0, minY = 0, minZ = 0] = min;
  const [maxX = 0, maxY = 0, maxZ = 0] = max;
  const diagonal = Math.hypot(maxX - minX, maxY - minY, maxZ - minZ);
  // All corners in one point: no triangle has an area.
  if (diagonal === 0) return empty('empty');
  const largest = Math.max(Math.abs(minX), Math.abs(minY), Math.abs(minZ), Math.abs(maxX), Math.abs(maxY), Math.abs(maxZ));
  const tolerance = Math.max(diagonal * WELD_RELATIVE, largest * WELD_FLOAT_STEPS);
  weld(vertices, vertexCount, min, tolerance);
  const { weldedIds } = meshScratch;

  // At most three edges per triangle: the table stays at most three quarters full.
  const size = tableSize(4 * triangleCount);
  const mask = size - 1;
  if (meshScratch.edgeLow.length < size) {
    meshScratch.edgeLow = new Int32Array(size);
    meshScratch.edgeHigh = new Int32Array(size);
    meshScratch.edgeBalance = new Int32Array(size);
  }
  const { edgeLow, edgeHigh, edgeBalance } = meshScratch;
  edgeLow.fill(-1, 0, size);

  // Edges whose balance is not 0: a closed surface ends with none.
  let unbalanced = 0;
  const addEdge = (from: number, to: number): void => {
    const slot = edgeSlot(from, to, mask);
    const change = from < to ? 1 : -1;
    if ((edgeLow[slot] ?? -1) < 0) {
      edgeLow[slot] = Math.min(from, to);
      edgeHigh[slot] = Math.max(from, to);
      edgeBalance[slot] = change;
      unbalanced++;
      return;
    }
    const before = edgeBalance[slot] ?? 0;
    const after = before + change;
    edgeBalance[slot] = after;
    if (after === 0) unbalanced--;
    else if (before === 0) unbalanced++;
  };

  const centre = Float64Array.of((minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2);
  let sixfoldVolume = 0;
  let kept = 0;
  for (let triangle = 0; triangle < triangleCount; triangle++) {
    const i0 = indices[triangle * 3] ?? -1;
    const i1 = indices[triangle * 3 + 1] ?? -1;
    const i2 = indices[triangle * 3 + 2] ?? -1;
    if (!(i0 >= 0 && i0 < vertexCount && i1 >= 0 && i1 < vertexCount && i2 >= 0 && i2 < vertexCount)) return empty('open');
    const w0 = weldedIds[i0] ?? 0;
    const w1 = weldedIds[i1] ?? 0;
    const w2 = weldedIds[i2] ?? 0;
    if (w0 === w1 || w1 === w2 || w2 === w0) continue;
    kept++;
    addEdge(w0, w1);
    addEdge(w1, w2);
    addEdge(w2, w0);
    sixfoldVolume += sixfoldTetrahedron(vertices, centre, i0, i1, i2);
  }
  if (kept === 0) return empty('empty');
  if (unbalanced === 0) return { closure: 'closed', localVolume: sixfoldVolume / 6, min, max };
  const reoriented = reorient(vertices, indices, triangleCount, size, centre);
  if (reoriented !== null) return { closure: 'closed', localVolume: reoriented / 6, min, max };
  const capped = capHoles(vertices, indices, triangleCount, size, centre);
  return capped === null ? empty('open') : { closure: 'closed', localVolume: (sixfoldVolume + capped) / 6, min, max };
}
