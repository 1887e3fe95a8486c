/**
 * What the passes over a mesh piece share (mesh-volume.ts): web-ifc's vertex layout, and scratch tables kept between
 * calls, since an import measures 100,000 small meshes in a row.
 */

/** Numbers per vertex in web-ifc's vertex data. */
export const STRIDE = 6;

/**
 * Scratch buffers, grown as needed and reused: the weld's hash table, each corner's welded vertex and each welded
 * vertex's first corner; the edge table (an undirected edge's two welded vertices, lower first, and its balance: how
 * many more triangles run it from the lower to the higher vertex than back).
 */
export const meshScratch = {
  weldSlots: new Int32Array(0),
  weldedIds: new Int32Array(0),
  weldedCorners: new Int32Array(0),
  edgeLow: new Int32Array(0),
  edgeHigh: new Int32Array(0),
  edgeBalance: new Int32Array(0),
  /** The two triangles of each edge table slot (2 per slot), for re-orienting a piece. */
  edgeTriangles: new Int32Array(0),
};

/** The smallest power of two ≥ `count` (and ≥ 16). */
export function tableSize(count: number): number {
  let size = 16;
  while (size < count) size *= 2;
  return size;
}

/** A hash of an integer cell (or edge) coordinate triple; the caller masks it to its table. */
export function hashCell(x: number, y: number, z: number): number {
  return Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
}

/** The edge table slot of the undirected edge between welded vertices a and b: where it is, or the free slot for it. */
export function edgeSlot(a: number, b: number, mask: number): number {
  const { edgeLow, edgeHigh } = meshScratch;
  const low = a < b ? a : b;
  const high = a < b ? b : a;
  for (let slot = hashCell(low, high, 0) & mask; ; slot = (slot + 1) & mask) {
    const stored = edgeLow[slot] ?? -1;
    if (stored < 0 || (stored === low && edgeHigh[slot] === high)) return slot;
  }
}
