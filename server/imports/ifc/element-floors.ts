/** The storey an element stands on, by name, found up through containment and aggregation. */
import { MAX_DEPTH } from './assembly-plan';
import { textOf, type LineSource } from './raw';
import type { Relations } from './relations';
import { WebIfc } from './web-ifc';

const { IFCBUILDINGSTOREY } = WebIfc;

export class FloorReader {
  private readonly floors = new Map<number, string | null>();

  constructor(
    private readonly reader: LineSource,
    private readonly relations: Relations,
  ) {}

  /**
   * The name of the storey above an element: up through containment (IfcRelContainedInSpatialStructure) and
   * aggregation (parts in assemblies, spaces in storeys) until an IfcBuildingStorey; null when there is none.
   */
  floorOf(id: number): string | null {
    const path: number[] = [];
    let current: number | undefined = id;
    let floor: string | null = null;
    for (let depth = 0; current !== undefined && depth < MAX_DEPTH; depth++) {
      const known = this.floors.get(current);
      if (known !== undefined) {
        floor = known;
        break;
      }
      if (current !== id) {
        const line = this.reader.line(current);
        if (line?.type === IFCBUILDINGSTOREY) {
          // IfcBuildingStorey(…, Name 2, …, LongName 7, …)
          floor = textOf(line.arguments[2])?.trim() || textOf(line.arguments[7])?.trim() || null;
          this.floors.set(current, floor);
          break;
        }
        path.push(current);
      }
      current = this.relations.containedIn.get(current) ?? this.relations.aggregatedBy.get(current);
    }
    // Remember the answer for every container and assembly on the way: their other members ask the same question.
    for (const node of path) this.floors.set(node, floor);
    return floor;
  }
}
