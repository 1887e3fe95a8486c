/**
 * Quantities of elements from their geometry, for models that carry no volume in their quantity or property sets:
 * web-ifc tessellates an element (its openings already cut away: web-ifc subtracts the IfcOpeningElements voiding it)
 * and mesh-volume.ts measures the triangles. Results are in SI: web-ifc's vertices are in the file's length unit and
 * each piece's placement (`flatTransformation`) carries the project's length unit as a scale (read from
 * IfcProject.UnitsInContext, as units.ts does), so placed coordinates are metres.
 *
 * - volume: of a closed mesh only (see mesh-volume.ts), m³;
 * - length: the largest extent of the mesh's bounding box in the element's own placement frame (the frame of its
 *   first piece of geometry), m;
 * - area: volume / the smallest of those extents, m²: the face area of a plate-like element (a wall's side, a slab's
 *   top, less its openings). For a beam or a column it is a side face, for a lump it means little.
 *
 * Memory: web-ifc keeps every geometry and placement it computes in caches that only `StreamMeshes` clears (after each
 * element). `GetFlatMesh` never clears them (30,000 synthetic walls grow the wasm heap by 60 MB, for good); each
 * element is therefore tessellated through `StreamMeshes`, and every object web-ifc hands over (the placed-geometry
 * vector, each geometry copy) is deleted once read. Over 100,000 walls the heap stays as it was after the first 1,000.
 */
import type { FlatMesh } from 'web-ifc';
import type { GeometryIssue } from '../../../shared/api';
import { measureMesh, type MeshPiece } from './mesh-volume';
import type { IfcAPI } from './web-ifc';

/** An element's quantities from its geometry: m³, m², m. */
export interface GeometricQuantities {
  volume: number;
  area: number;
  length: number;
}

/** What `quantities` gives: the quantities, or why the geometry gave none. */
export type GeometryResult = GeometricQuantities | { issue: GeometryIssue };

/**
 * web-ifc's vector of placed geometries is an embind object its typings do not show as one: it lives in the wasm heap
 * until deleted. (The typings put `delete` on FlatMesh instead, a plain object that has none.)
 */
interface WasmVector {
  delete(): void;
}

/** Measures elements of one open web-ifc model (opened any way, `OpenModelFromCallback` included). */
export class ElementGeometry {
  constructor(
    private readonly api: IfcAPI,
    private readonly modelId: number,
  ) {}

  /**
   * The volume, area and length of an element, or of several measured as one body (an assembly whose body lies in its
   * parts): `empty` when web-ifc gives no triangles (no representation, only curves or a bounding box, or geometry
   * web-ifc cannot build), `open` when the mesh does not enclose a volume, `failed` when web-ifc throws.
   */
  quantities(expressIds: number | readonly number[]): GeometryResult {
    const ids = typeof expressIds === 'number' ? [expressIds] : [...expressIds];
    const pieces: MeshPiece[] = [];
    let failed = false;
    try {
      this.api.StreamMeshes(
        this.modelId,
        ids,
        (mesh) => {
          // An exception must not unwind through web-ifc's loop (it would skip the cache clearing after this element).
          try {
            this.collect(mesh.geometries, pieces);
          } catch {
            failed = true;
          }
        },
        // Scale placements by the project's length unit: placed coordinates in metres.
        true,
      );
    } catch {
      failed = true;
    }
    if (failed) return { issue: 'failed' };
    const measured = measureMesh(pieces);
    if ('issue' in measured) return measured;
    // A body has a thickness: with none, its volume would be nothing and measureMesh would have called it empty.
    const [smallest, , largest] = measured.extents;
    return { volume: measured.volume, area: measured.volume / smallest, length: largest };
  }

  /** Copies each placed geometry's vertices and indices out of the wasm heap, freeing what web-ifc handed over. */
  private collect(geometries: FlatMesh['geometries'], pieces: MeshPiece[]): void {
    try {
      for (let index = 0; index < geometries.size(); index++) {
        const placed = geometries.get(index);
        const geometry = this.api.GetGeometry(this.modelId, placed.geometryExpressID);
        try {
          pieces.push({
            vertices: this.api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize()),
            indices: this.api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize()),
            matrix: placed.flatTransformation,
          });
        } finally {
          geometry.delete();
        }
      }
    } finally {
      (geometries as unknown as WasmVector).delete();
    }
  }
}
