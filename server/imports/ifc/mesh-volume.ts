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
import { measurePiece, type MeshIssue, type MeshPiece, type PieceMeasure } from './mesh-piece';
import { apply, extendByPiece, inverse, multiply, placementOf } from './mesh-placement';

export type { MeshIssue, MeshPiece } from './mesh-piece';

/** A closed mesh's volume (m³) and its bounding box's extents in its own frame (m), smallest first. */
export interface MeshBody {
  volume: number;
  extents: [number, number, number];
}

/** A closed mesh whose volume is at most this fraction of its bounding box diagonal cubed encloses nothing. */
const EMPTY_VOLUME = 1e-9;

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
