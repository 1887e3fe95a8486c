/**
 * Classification codes of classification references: IFC2X3 IfcClassificationReference.ItemReference and IFC4
 * IfcClassificationReference.Identification sit at the same position (argument 1); a reference without one gives its
 * Name. IFC2X3 IfcClassificationNotation gives each facet's NotationValue. An IfcClassification itself (a system, no
 * code) gives nothing.
 */
import { WebIfc } from './web-ifc';
import { refsOf, textOf, type LineReader } from './raw';

const { IFCCLASSIFICATIONNOTATION, IFCCLASSIFICATIONNOTATIONFACET, IFCCLASSIFICATIONREFERENCE } = WebIfc;

/** Resolves classification selects to codes, caching per select (a reference is shared by many elements). */
export class ClassificationReader {
  private readonly cache = new Map<number, readonly string[]>();

  constructor(private readonly reader: LineReader) {}

  /** The distinct codes of these classification selects, in order. */
  codes(selectIds: readonly number[]): string[] {
    const codes: string[] = [];
    for (const id of selectIds) {
      for (const code of this.codesOf(id)) if (!codes.includes(code)) codes.push(code);
    }
    return codes;
  }

  private codesOf(id: number): readonly string[] {
    let codes = this.cache.get(id);
    if (codes === undefined) {
      codes = this.read(id);
      this.cache.set(id, codes);
    }
    return codes;
  }

  private read(id: number): string[] {
    const line = this.reader.line(id);
    if (line === null) return [];
    if (line.type === IFCCLASSIFICATIONREFERENCE) {
      // (Location, ItemReference | Identification, Name, ReferencedSource, …)
      const code = textOf(line.arguments[1])?.trim() || textOf(line.arguments[2])?.trim();
      return code ? [code] : [];
    }
    if (line.type === IFCCLASSIFICATIONNOTATION) {
      const codes: string[] = [];
      for (const facetId of refsOf(line.arguments[0])) {
        const facet = this.reader.line(facetId);
        const value = facet?.type === IFCCLASSIFICATIONNOTATIONFACET ? textOf(facet.arguments[0])?.trim() : undefined;
        if (value) codes.push(value);
      }
      return codes;
    }
    return [];
  }
}
