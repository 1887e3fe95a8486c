/** Welding a mesh piece's corners by position (web-ifc writes every vertex once per face). */
import { hashCell, meshScratch, STRIDE, tableSize } from './mesh-scratch';

/**
 * Weld cells are this many tolerances wide. A vertex is looked for in its own cell, and only when that fails and it lies
 * within the tolerance of a cell's side, in the neighbouring cells too: wide cells keep that second look rare.
 */
const CELL_TOLERANCES = 16;

/**
 * Welds a piece's corners by position: fills `weldedIds[0 … vertexCount)` with a vertex number shared by corners within
 * `tolerance` of each other (per axis) and `weldedCorners` with each welded vertex's first corner.
 */
export function weld(vertices: ArrayLike<number>, vertexCount: number, min: Float64Array, tolerance: number): void {
  const size = tableSize(2 * vertexCount);
  const mask = size - 1;
  if (meshScratch.weldSlots.length < size) meshScratch.weldSlots = new Int32Array(size);
  if (meshScratch.weldedIds.length < vertexCount) {
    meshScratch.weldedIds = new Int32Array(tableSize(vertexCount));
    meshScratch.weldedCorners = new Int32Array(meshScratch.weldedIds.length);
  }
  const { weldSlots, weldedIds, weldedCorners } = meshScratch;
  weldSlots.fill(-1, 0, size);
  const scale = 1 / (tolerance * CELL_TOLERANCES);
  const edge = 1 / CELL_TOLERANCES;
  const [minX = 0, minY = 0, minZ = 0] = min;

  // The first vertex within the tolerance found in cell (cx, cy, cz)'s chain, or -1.
  const find = (cx: number, cy: number, cz: number, x: number, y: number, z: number): number => {
    for (let slot = hashCell(cx, cy, cz) & mask; ; slot = (slot + 1) & mask) {
      const other = weldSlots[slot] ?? -1;
      if (other < 0) return -1;
      const base = other * STRIDE;
      if (
        Math.abs((vertices[base] ?? 0) - x) <= tolerance &&
        Math.abs((vertices[base + 1] ?? 0) - y) <= tolerance &&
        Math.abs((vertices[base + 2] ?? 0) - z) <= tolerance
      ) {
        return other;
      }
    }
  };

  let distinct = 0;
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    const base = vertex * STRIDE;
    const x = vertices[base] ?? 0;
    const y = vertices[base + 1] ?? 0;
    const z = vertices[base + 2] ?? 0;
    const fx = (x - minX) * scale;
    const fy = (y - minY) * scale;
    const fz = (z - minZ) * scale;
    const cx = Math.floor(fx);
    const cy = Math.floor(fy);
    const cz = Math.floor(fz);
    let match = find(cx, cy, cz, x, y, z);
    if (match < 0) {
      // A match in another cell lies across a side this vertex is within the tolerance of.
      const rx = fx - cx;
      const ry = fy - cy;
      const rz = fz - cz;
      const stepX = rx < edge ? -1 : rx > 1 - edge ? 1 : 0;
      const stepY = ry < edge ? -1 : ry > 1 - edge ? 1 : 0;
      const stepZ = rz < edge ? -1 : rz > 1 - edge ? 1 : 0;
      if (stepX !== 0 || stepY !== 0 || stepZ !== 0) {
        for (let dx = 0; dx <= Math.abs(stepX) && match < 0; dx++) {
          for (let dy = 0; dy <= Math.abs(stepY) && match < 0; dy++) {
            for (let dz = 0; dz <= Math.abs(stepZ) && match < 0; dz++) {
              if (dx === 0 && dy === 0 && dz === 0) continue;
              match = find(cx + dx * stepX, cy + dy * stepY, cz + dz * stepZ, x, y, z);
            }
          }
        }
      }
    }
    if (match >= 0) {
      weldedIds[vertex] = weldedIds[match] ?? 0;
      continue;
    }
    let slot = hashCell(cx, cy, cz) & mask;
    while ((weldSlots[slot] ?? -1) >= 0) slot = (slot + 1) & mask;
    weldSlots[slot] = vertex;
    weldedCorners[distinct] = vertex;
    weldedIds[vertex] = distinct++;
  }
}
