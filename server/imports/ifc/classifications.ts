/**
 * Classification references of elements: their codes, and the system each belongs to. IFC2X3
 * IfcClassificationReference.ItemReference and IFC4 IfcClassificationReference.Identification sit at the same position
 * (argument 1); a reference without one gives its Name. Its system is the IfcClassification its ReferencedSource leads
 * to (through nested references in IFC4). IFC2X3 IfcClassificationNotation gives each facet's NotationValue, with no
 * system. An IfcClassification itself (a system, no code) gives nothing.
 */
import { WebIfc } from './web-ifc';
import { refOf, refsOf, textOf, type LineSource } from './raw';

const { IFCCLASSIFICATION, IFCCLASSIFICATIONNOTATION, IFCCLASSIFICATIONNOTATIONFACET, IFCCLASSIFICATIONREFERENCE } = WebIfc;

/** One classification reference of the model. */
export interface ModelClassification {
  code: string;
  /** What the model says of the system: the IfcClassification's Name, then its Source; empty when nothing is said. */
  systemNames: string[];
}

/** References lead to their system through at most this many nested references (a cycle must not hang the import). */
const MAX_NESTING = 8;

/** Resolves classification selects to references, caching per select (a reference is shared by many elements). */
export class ClassificationReader {
  private readonly cache = new Map<number, readonly ModelClassification[]>();
  private readonly systems = new Map<number, string[]>();

  constructor(private readonly reader: LineSource) {}

  /** The distinct codes of these classification selects, in order. */
  codes(selectIds: readonly number[]): string[] {
    const codes: string[] = [];
    for (const reference of this.references(selectIds)) if (!codes.includes(reference.code)) codes.push(reference.code);
    return codes;
  }

  /** The references of these classification selects, in order. */
  references(selectIds: readonly number[]): ModelClassification[] {
    return selectIds.flatMap((id) => this.referencesOf(id));
  }

  private referencesOf(id: number): readonly ModelClassification[] {
    let references = this.cache.get(id);
    if (references === undefined) {
      references = this.read(id);
      this.cache.set(id, references);
    }
    return references;
  }

  private read(id: number): ModelClassification[] {
    const line = this.reader.line(id);
    if (line === null) return [];
    if (line.type === IFCCLASSIFICATIONREFERENCE) {
      // (Location, ItemReference | Identification, Name, ReferencedSource, …)
      const code = textOf(line.arguments[1])?.trim() || textOf(line.arguments[2])?.trim();
      return code ? [{ code, systemNames: this.systemOf(refOf(line.arguments[3]), 0) }] : [];
    }
    if (line.type === IFCCLASSIFICATIONNOTATION) {
      const references: ModelClassification[] = [];
      for (const facetId of refsOf(line.arguments[0])) {
        const facet = this.reader.line(facetId);
        const value = facet?.type === IFCCLASSIFICATIONNOTATIONFACET ? textOf(facet.arguments[0])?.trim() : undefined;
        if (value) references.push({ code: value, systemNames: [] });
      }
      return references;
    }
    return [];
  }

  /** The names of the system a ReferencedSource leads to. */
  private systemOf(sourceId: number | null, depth: number): string[] {
    if (sourceId === null || depth > MAX_NESTING) return [];
    const known = this.systems.get(sourceId);
    if (known !== undefined) return known;
    const line = this.reader.line(sourceId);
    let names: string[] = [];
    if (line?.type === IFCCLASSIFICATION) {
      // IfcClassification(Source, Edition, EditionDate, Name, …)
      names = [textOf(line.arguments[3]), textOf(line.arguments[0])].flatMap((name) => (name?.trim() ? [name.trim()] : []));
    } else if (line?.type === IFCCLASSIFICATIONREFERENCE) {
      names = this.systemOf(refOf(line.arguments[3]), depth + 1);
    }
    this.systems.set(sourceId, names);
    return names;
  }
}
