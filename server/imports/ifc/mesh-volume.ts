/**
 * Volume and extents of an element's triangle mesh, as web-ifc tessellates it (pure math, no web-ifc here; geometry.ts
 * feeds it). An element's mesh comes in pieces, one per representation item, each with its own placement.
 *
 * - **Closed**: web-ifc writes every vertex once per face (each corner carries its face's normal), so the corners are
 *   first welded by position, within a tolerance relative to the piece's size. Triangles with two corners welded into
 *   one are dropped (they have no area). The piece is closed when every undirected edge is run as often in one
 *   direction as in the other: on a clean surface, by exactly two triangles, once each way (consistently oriented, no
 *   holes); four where two shells touch along an edge. Several separate shells (a window's frame and glass) are closed
 *   when each one is; an element is closed when each of its pieces is.
 * - **Wound inconsistently**: a piece whose every edge is shared by exactly two triangles, some running it the same
 *   way, is closed but has faces turned inside out (Revit's surface models of furniture and ceilings in IFC2X3, as
 *   web-ifc reads them). Its triangles are turned to agree with their neighbours and each of its shells counts by its
 *   absolute volume.
 * - **Nearly closed**: web-ifc's boolean results (walls cut by openings, clipped under a roof) and some exporters'
 *   breps are not always clean: a strip of faces comes twice, a face or a triangle is missing, an edge is split on one
 *   side only (a T-junction). The edges left unbalanced are the rims of those defects; each connected rim is capped
 *   with a fan from its centroid, which balances every edge again (a doubled strip is cancelled exactly, a missing
 *   planar face is restored exactly). When the caps take at most a tenth of the piece's surface, the piece counts as
 *   closed with the capped volume; otherwise it is open. A cap's size is its vector area (the area of the hole seen
 *   flat; the collinear rims of a T-junction span nothing). On the fixtures the caps take under 0.6 % of the surface
 *   for boolean defects, about 1 % for railings missing the ends of their sweeps and 2–6 % for walls missing their end
 *   faces (capped volumes match the files' own volumes within 0.1 %), against 30 % and more for the open surface
 *   models of furniture, which stay open.
 * - **Volume**: the signed volume Σ v0·(v1×v2)/6 over the triangles. For a closed surface it does not depend on the
 *   origin, so it is summed in the piece's own frame about the piece's centre (less cancellation than world
 *   coordinates) and multiplied by the determinant of the placement's linear part (which carries web-ifc's unit scale).
 *   A mirroring placement has a negative determinant, which turns the sign; each piece counts by its absolute volume,
 *   so a mirrored piece beside an unmirrored one adds up instead of cancelling.
 * - **Extents**: the bounding box in the first piece's frame (the element's own placement frame, before placement),
 *   in metres: the other pieces are brought into that frame, and each axis is scaled by the length of the placement's
 *   column for it. Sorted from smallest to largest, so the smallest is a plate's thickness and the largest its length.
 *
 * An open or broken mesh (an index out of range, a coordinate that is not finite) gives no volume but the reason;
 * nothing here throws. Scratch buffers are kept between calls: an import measures 100,000 small meshes in a row.
 */

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

/** A closed mesh's volume (m³) and its bounding box's extents in its own frame (m), smallest first. */
export interface MeshBody {
  volume: number;
  extents: [number, number, number];
}

/** Numbers per vertex in web-ifc's vertex data. */
const STRIDE = 6;
/** Corners closer than this fraction of the piece's size (bounding box diagonal) are one vertex. */
const WELD_RELATIVE = 1e-6;
/**
 * …and never closer than a few float32 steps at the piece's largest coordinate: web-ifc hands out float32 positions,
 * whose rounding grows with the distance from the frame's origin (2^-21 is 4 units in the last place).
 */
const WELD_FLOAT_STEPS = 2 ** -21;
/**
 * Weld cells are this many tolerances wide. A vertex is looked for in its own cell, and only when that fails and it lies
 * within the tolerance of a cell's side, in the neighbouring cells too: wide cells keep that second look rare.
 */
const CELL_TOLERANCES = 16;
/** A closed mesh whose volume is at most this fraction of its bounding box diagonal cubed encloses nothing. */
const EMPTY_VOLUME = 1e-9;
/** A piece with holes still counts as closed when capping them takes at most this share of its surface area. */
const HOLE_SHARE = 0.1;

/** The placement of a piece split into its linear part (row-major 3×3) and its translation. */
interface Placement {
  linear: Float64Array;
  translation: Float64Array;
  determinant: number;
}

/** What one piece gives: its closure, volume and bounding box in its own frame (before placement). */
interface PieceMeasure {
  closure: 'closed' | MeshIssue;
  /** Signed volume in the piece's own frame (before placement). */
  localVolume: number;
  min: Float64Array;
  max: Float64Array;
}

// Scratch buffers, grown as needed and reused: the weld's hash table, each corner's welded vertex and each welded
// vertex's first corner; the edge table (an undirected edge's two welded vertices, lower first, and its balance: how
// many more triangles run it from the lower to the higher vertex than back).
let weldSlots = new Int32Array(0);
let weldedIds = new Int32Array(0);
let weldedCorners = new Int32Array(0);
let edgeLow = new Int32Array(0);
let edgeHigh = new Int32Array(0);
let edgeBalance = new Int32Array(0);
/** The two triangles of each edge table slot (2 per slot), for re-orienting a piece. */
let edgeTriangles = new Int32Array(0);

/** The smallest power of two ≥ `count` (and ≥ 16). */
function tableSize(count: number): number {
  let size = 16;
  while (size < count) size *= 2;
  return size;
}

function placementOf(matrix: ArrayLike<number>): Placement {
  const m = (index: number): number => Number(matrix[index] ?? 0);
  // Column-major: element (row r, column c) is m[4c + r].
  const linear = Float64Array.of(m(0), m(4), m(8), m(1), m(5), m(9), m(2), m(6), m(10));
  const translation = Float64Array.of(m(12), m(13), m(14));
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  const determinant = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return { linear, translation, determinant };
}

/** The inverse of a 3×3 row-major matrix with a non-zero determinant. */
function inverse(linear: Float64Array, determinant: number): Float64Array {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  const k = 1 / determinant;
  return Float64Array.of(
    (e * i - f * h) * k,
    (c * h - b * i) * k,
    (b * f - c * e) * k,
    (f * g - d * i) * k,
    (a * i - c * g) * k,
    (c * d - a * f) * k,
    (d * h - e * g) * k,
    (b * g - a * h) * k,
    (a * e - b * d) * k,
  );
}

/** A hash of an integer cell (or edge) coordinate triple; the caller masks it to its table. */
function hashCell(x: number, y: number, z: number): number {
  return Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
}

/**
 * Welds a piece's corners by position: fills `weldedIds[0 … vertexCount)` with a vertex number shared by corners within
 * `tolerance` of each other (per axis) and `weldedCorners` with each welded vertex's first corner.
 */
function weld(vertices: ArrayLike<number>, vertexCount: number, min: Float64Array, tolerance: number): void {
  const size = tableSize(2 * vertexCount);
  const mask = size - 1;
  if (weldSlots.length < size) weldSlots = new Int32Array(size);
  weldSlots.fill(-1, 0, size);
  if (weldedIds.length < vertexCount) {
    weldedIds = new Int32Array(tableSize(vertexCount));
    weldedCorners = new Int32Array(weldedIds.length);
  }
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

/** Measures one piece in its own frame: bounding box, weld, edge check and signed volume in one pass each. */
function measurePiece(piece: MeshPiece): PieceMeasure {
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

  // At most three edges per triangle: the table stays at most three quarters full.
  const size = tableSize(4 * triangleCount);
  const mask = size - 1;
  if (edgeLow.length < size) {
    edgeLow = new Int32Array(size);
    edgeHigh = new Int32Array(size);
    edgeBalance = new Int32Array(size);
  }
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

/** The edge table slot of the undirected edge between welded vertices a and b: where it is, or the free slot for it. */
function edgeSlot(a: number, b: number, mask: number): number {
  const low = a < b ? a : b;
  const high = a < b ? b : a;
  for (let slot = hashCell(low, high, 0) & mask; ; slot = (slot + 1) & mask) {
    const stored = edgeLow[slot] ?? -1;
    if (stored < 0 || (stored === low && edgeHigh[slot] === high)) return slot;
  }
}

/**
 * Six times the volume of a piece that is closed but wound inconsistently (every edge shared by exactly two triangles,
 * some running it the same way), once its triangles are turned to agree with their neighbours; null when some edge is
 * not shared by exactly two triangles or the surface cannot be oriented. Each connected shell counts by its absolute
 * volume: which way a shell was meant to face is unknown.
 */
function reorient(vertices: ArrayLike<number>, indices: ArrayLike<number>, triangleCount: number, tableLength: number, centre: Float64Array): number | null {
  const mask = tableLength - 1;
  if (edgeTriangles.length < 2 * tableLength) edgeTriangles = new Int32Array(2 * tableLength);
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

/** Six times the signed volume of the tetrahedron from `origin` to corners a, b, c of `vertices`: (a−o)·((b−o)×(c−o)). */
function sixfoldTetrahedron(vertices: ArrayLike<number>, origin: Float64Array, a: number, b: number, c: number): number {
  const [ox = 0, oy = 0, oz = 0] = origin;
  const ax = (vertices[a * STRIDE] ?? 0) - ox;
  const ay = (vertices[a * STRIDE + 1] ?? 0) - oy;
  const az = (vertices[a * STRIDE + 2] ?? 0) - oz;
  const bx = (vertices[b * STRIDE] ?? 0) - ox;
  const by = (vertices[b * STRIDE + 1] ?? 0) - oy;
  const bz = (vertices[b * STRIDE + 2] ?? 0) - oz;
  const cx = (vertices[c * STRIDE] ?? 0) - ox;
  const cy = (vertices[c * STRIDE + 1] ?? 0) - oy;
  const cz = (vertices[c * STRIDE + 2] ?? 0) - oz;
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

/** Twice the area of triangle a, b, c of `vertices`. */
function doubleArea(vertices: ArrayLike<number>, a: number, b: number, c: number): number {
  const ax = vertices[a * STRIDE] ?? 0;
  const ay = vertices[a * STRIDE + 1] ?? 0;
  const az = vertices[a * STRIDE + 2] ?? 0;
  const ux = (vertices[b * STRIDE] ?? 0) - ax;
  const uy = (vertices[b * STRIDE + 1] ?? 0) - ay;
  const uz = (vertices[b * STRIDE + 2] ?? 0) - az;
  const vx = (vertices[c * STRIDE] ?? 0) - ax;
  const vy = (vertices[c * STRIDE + 1] ?? 0) - ay;
  const vz = (vertices[c * STRIDE + 2] ?? 0) - az;
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
}

/**
 * Caps the holes of a nearly closed piece (its edge table filled, some edges unbalanced; see the module comment) and
 * returns what the caps add to six times its volume about `centre`, or null when the holes are too large for the piece
 * to count as closed. A hole's size is its cap's vector area (the area it spans, seen flat): the collinear rims a
 * T-junction leaves span nothing, a missing face spans the face.
 */
function capHoles(vertices: ArrayLike<number>, indices: ArrayLike<number>, triangleCount: number, tableLength: number, centre: Float64Array): number | null {
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

/**
 * Measures an element's mesh from its pieces: its volume when every piece is closed, else why not. See the module
 * comment for the rules.
 */
export function measureMesh(pieces: readonly MeshPiece[]): MeshBody | { issue: MeshIssue } {
  const measured: { piece: MeshPiece; measure: PieceMeasure }[] = [];
  for (const piece of pieces) {
    const measure = measurePiece(piece);
    if (measure.closure === 'open') return { issue: 'open' };
    // A piece without area (a stray point or line tessellated as nothing) takes nothing away from the others.
    if (measure.closure === 'closed') measured.push({ piece, measure });
  }
  const first = measured[0];
  if (first === undefined) return { issue: 'empty' };
  const reference = placementOf(first.piece.matrix);
  // A placement that flattens the first piece leaves no frame to measure extents in, and no volume.
  if (reference.determinant === 0 || !Number.isFinite(reference.determinant)) return { issue: 'empty' };
  const toReference = inverse(reference.linear, reference.determinant);

  let volume = 0;
  const min = Float64Array.from(first.measure.min);
  const max = Float64Array.from(first.measure.max);
  for (const { piece, measure } of measured) {
    const placement = measure === first.measure ? reference : placementOf(piece.matrix);
    volume += Math.abs(measure.localVolume * placement.determinant);
    if (measure === first.measure) continue;
    // This piece's bounding box corners, taken into the first piece's frame: R = A₀⁻¹·A, r = A₀⁻¹·(t − t₀).
    const relative = multiply(toReference, placement.linear);
    const shift = Float64Array.of(
      (placement.translation[0] ?? 0) - (reference.translation[0] ?? 0),
      (placement.translation[1] ?? 0) - (reference.translation[1] ?? 0),
      (placement.translation[2] ?? 0) - (reference.translation[2] ?? 0),
    );
    const offset = apply(toReference, shift[0] ?? 0, shift[1] ?? 0, shift[2] ?? 0);
    extendByPiece(piece.vertices, relative, offset, min, max);
  }
  if (!Number.isFinite(volume)) return { issue: 'open' };

  const extents = [0, 1, 2].map((axis) => {
    // The length of the reference placement's column for this axis: its scale (web-ifc's unit factor among it).
    const columnLength = Math.hypot(reference.linear[axis] ?? 0, reference.linear[3 + axis] ?? 0, reference.linear[6 + axis] ?? 0);
    return ((max[axis] ?? 0) - (min[axis] ?? 0)) * columnLength;
  });
  extents.sort((a, b) => a - b);
  // A closed surface around next to nothing (a profile of zero width, extruded) has no volume to give.
  if (volume <= EMPTY_VOLUME * Math.hypot(...extents) ** 3) return { issue: 'empty' };
  return { volume, extents: [extents[0] ?? 0, extents[1] ?? 0, extents[2] ?? 0] };
}

/** The product of two 3×3 row-major matrices. */
function multiply(left: Float64Array, right: Float64Array): Float64Array {
  const product = new Float64Array(9);
  for (let row = 0; row < 3; row++) {
    for (let column = 0; column < 3; column++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += (left[row * 3 + k] ?? 0) * (right[k * 3 + column] ?? 0);
      product[row * 3 + column] = sum;
    }
  }
  return product;
}

/** A 3×3 row-major matrix applied to a vector. */
function apply(linear: Float64Array, x: number, y: number, z: number): Float64Array {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = linear;
  return Float64Array.of(a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z);
}

/** Widens [min, max] by every vertex of a piece taken into the reference frame (x′ = R·x + r). */
function extendByPiece(vertices: ArrayLike<number>, relative: Float64Array, offset: Float64Array, min: Float64Array, max: Float64Array): void {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0] = relative;
  const [rx = 0, ry = 0, rz = 0] = offset;
  const vertexCount = Math.floor(vertices.length / STRIDE);
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    const base = vertex * STRIDE;
    const x = vertices[base] ?? 0;
    const y = vertices[base + 1] ?? 0;
    const z = vertices[base + 2] ?? 0;
    extend(min, max, 0, a * x + b * y + c * z + rx);
    extend(min, max, 1, d * x + e * y + f * z + ry);
    extend(min, max, 2, g * x + h * y + i * z + rz);
  }
}

function extend(min: Float64Array, max: Float64Array, axis: number, value: number): void {
  if (value < (min[axis] ?? 0)) min[axis] = value;
  if (value > (max[axis] ?? 0)) max[axis] = value;
}
