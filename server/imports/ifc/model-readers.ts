/**
 * The readers one extraction (extract.ts) shares over a model: units, relations, property sets, materials and their
 * splits, classification references and type objects, with what an element's rows are composed of read through them.
 */
import type { ElementFacts } from '../../refine/classification-inference';
import { ClassificationReader, type ModelClassification } from './classifications';
import { MaterialSplits } from './material-splits';
import { MaterialReader } from './materials';
import { orderSets, PropertyReader, resolveProperties, type DefinitionSummary, type ResolvedProperties } from './properties';
import { refsOf, textOf, type LineSource, type RawLine } from './raw';
import { readRelations, type Relations } from './relations';
import { UnitReader, type UnitFactors } from './units';
import { WebIfc } from './web-ifc';

const { ENUM } = WebIfc;

/** What a type object contributes to its occurrences. */
export interface TypeInfo {
  name: string | null;
  /** Its entity (`IfcWallType`). */
  typeClass: string;
  /** Its PredefinedType (IfcElementType: argument 9), unless NOTDEFINED or USERDEFINED. */
  predefinedType: string | null;
  sets: DefinitionSummary[];
}

/** PredefinedType values that say nothing. */
const UNDEFINED_TYPES = new Set(['NOTDEFINED', 'USERDEFINED']);

/**
 * Where an occurrence's PredefinedType sits: argument 8 (after Tag) for most elements; IfcElementAssembly has its
 * AssemblyPlace first; IFC4 doors and windows have their overall height and width first (IFC2X3 ones have none).
 */
const PREDEFINED_TYPE_POSITION: ReadonlyMap<string, number> = new Map([
  ['IFCELEMENTASSEMBLY', 9],
  ['IFCDOOR', 10],
  ['IFCDOORSTANDARDCASE', 10],
  ['IFCWINDOW', 10],
  ['IFCWINDOWSTANDARDCASE', 10],
]);

/** The enumeration value at `position` of a line, unless it is absent or says nothing. */
function predefinedTypeAt(line: RawLine | null, position: number): string | null {
  const argument = line?.arguments[position];
  if (argument === null || argument === undefined || Array.isArray(argument) || argument.type !== ENUM) return null;
  const value = textOf(argument);
  return value === null || UNDEFINED_TYPES.has(value) ? null : value;
}

export class ModelReaders {
  readonly units: UnitReader;
  readonly factors: UnitFactors;
  readonly relations: Relations;
  readonly properties: PropertyReader;
  readonly materials: MaterialReader;
  /** What layered and composite material selects split into. */
  readonly materialSplits: MaterialSplits;
  readonly classifications: ClassificationReader;
  private readonly types = new Map<number, TypeInfo>();

  constructor(readonly reader: LineSource) {
    this.units = new UnitReader(reader);
    this.factors = this.units.projectFactors();
    this.relations = readRelations(reader);
    this.properties = new PropertyReader(reader, this.units, this.factors, this.relations.sharedDefinitions);
    this.materials = new MaterialReader(reader);
    this.materialSplits = new MaterialSplits(reader, this.factors.length);
    this.classifications = new ClassificationReader(reader);
  }

  /** Reads the lines a batch needs in bulk: the elements, then their property sets and those sets' entries. */
  prefetch(ids: readonly number[]): void {
    this.reader.prefetch(ids);
    const definitions: number[] = [];
    for (const id of ids) definitions.push(...(this.relations.definitionsOf.get(id) ?? []));
    this.properties.prefetch(definitions);
  }

  /** Ends a batch: drops what `prefetch` read. */
  release(): void {
    this.reader.clearPrefetched();
  }

  /** The type object of an element, if it has one. */
  typeOf(id: number): TypeInfo | null {
    const typeId = this.relations.typeOf.get(id);
    return typeId === undefined ? null : this.type(typeId);
  }

  /** The properties of an element, with its type's sets as the fallback. */
  resolve(id: number): ResolvedProperties {
    const type = this.typeOf(id);
    return resolveProperties(orderSets(this.setsOf(id), type?.sets ?? []), this.factors);
  }

  materialSelect(id: number): number | undefined {
    const typeId = this.relations.typeOf.get(id);
    return this.relations.materialOf.get(id) ?? (typeId === undefined ? undefined : this.relations.materialOf.get(typeId));
  }

  /** The element's classification references, else its type's. */
  referencesOf(id: number): ModelClassification[] {
    const own = this.classifications.references(this.relations.classificationsOf.get(id) ?? []);
    const typeId = this.relations.typeOf.get(id);
    if (own.length > 0 || typeId === undefined) return own;
    return this.classifications.references(this.relations.classificationsOf.get(typeId) ?? []);
  }

  /** What the element is, for inferring its classification: its class, PredefinedType and common properties. */
  factsOf(line: RawLine, type: TypeInfo | null, resolved: ResolvedProperties): ElementFacts {
    const ifcClass = this.reader.typeName(line.type);
    const position = PREDEFINED_TYPE_POSITION.get(ifcClass.toUpperCase()) ?? 8;
    return {
      ifcClass,
      predefinedType: predefinedTypeAt(line, position) ?? type?.predefinedType ?? null,
      typeClass: type?.typeClass ?? null,
      isExternal: resolved.isExternal,
      loadBearing: resolved.loadBearing,
    };
  }

  private setsOf(id: number): DefinitionSummary[] {
    const sets: DefinitionSummary[] = [];
    for (const definition of this.relations.definitionsOf.get(id) ?? []) {
      const summary = this.properties.summary(definition);
      if (summary !== null) sets.push(summary);
    }
    return sets;
  }

  /** IfcTypeObject(GlobalId, OwnerHistory, Name, Description, ApplicableOccurrence, HasPropertySets, …). */
  private type(typeId: number): TypeInfo {
    let info = this.types.get(typeId);
    if (info === undefined) {
      const line = this.reader.line(typeId);
      const definitions = [...refsOf(line?.arguments[5]), ...(this.relations.definitionsOf.get(typeId) ?? [])];
      const sets: DefinitionSummary[] = [];
      for (const definition of new Set(definitions)) {
        const summary = this.properties.summary(definition);
        if (summary !== null) sets.push(summary);
      }
      info = {
        name: textOf(line?.arguments[2]),
        typeClass: line === null ? '' : this.reader.typeName(line.type),
        // IfcElementType(GlobalId, OwnerHistory, Name, Description, ApplicableOccurrence, HasPropertySets, RepresentationMaps, Tag, ElementType, PredefinedType, …)
        predefinedType: predefinedTypeAt(line, 9),
        sets,
      };
      this.types.set(typeId, info);
    }
    return info;
  }
}
